import Foundation
import Testing
import Zoetrope

/// The fixture seeds are valid files (so the fuzzer starts from inputs that reach every
/// frame), and `Scripts/fuzz.sh` writes them out through `writeSeeds`.
@Suite struct FuzzSeedTests {
    static let targets: [String: FuzzTarget] = ["gif": .gif, "png": .apng, "webp": .webp]

    @Test func everySeedDecodesWholly() throws {
        let seeds = try FuzzSeeds.all()
        #expect(Set(seeds.map(\.family)) == ["gif", "png", "webp"])
        for seed in seeds {
            let outcome = try #require(FuzzSeedTests.targets[seed.family]).run(seed.data)
            #expect(outcome.isAcceptable && outcome.firstError == nil && outcome.frameCount > 0, "\(seed.name): \(outcome)")
        }
    }

    /// `ZOETROPE_FUZZ_SEEDS=DIR` writes every seed to `DIR/<family>/<name>`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ZOETROPE_FUZZ_SEEDS"] != nil, "ZOETROPE_FUZZ_SEEDS is not set"))
    func writeSeeds() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["ZOETROPE_FUZZ_SEEDS"]!)
        for seed in try FuzzSeeds.all() {
            let family = folder.appendingPathComponent(seed.family)
            try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
            let url = family.appendingPathComponent(seed.name)
            try seed.data.write(to: url)
            #expect(try Data(contentsOf: url) == seed.data)
        }
    }
}
