import Foundation
import Testing
import Zoetrope

/// The fixture seeds (`FuzzSeeds`, which `Scripts/fuzz.sh` writes out for the fuzzers) are
/// valid files, so the fuzzer starts from inputs that reach every frame.
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
}
