import Foundation
import Testing
import Zoetrope

/// The fixture seeds (`FuzzSeeds`, which `Scripts/fuzz.sh` writes out for the fuzzers) are
/// valid files, so the fuzzer starts from inputs that reach every frame.
@Suite struct FuzzSeedTests {
    @Test func everySeedDecodesWholly() throws {
        let seeds = try FuzzSeeds.all()
        #expect(Set(seeds.map(\.family)) == ["gif", "png", "webp", "jpeg", "encode"])
        for seed in seeds {
            // The coder target of the seed's family (the one Scripts/fuzz.sh gives it to), or
            // the encode target for its own inputs.
            let target = try #require(FuzzTarget.allCases.first { ($0.coder != nil || $0 == .encode) && $0.family == seed.family })
            let outcome = target.run(seed.data)
            #expect(outcome.isAcceptable && outcome.firstError == nil && outcome.frameCount > 0, "\(seed.name): \(outcome)")
        }
    }
}
