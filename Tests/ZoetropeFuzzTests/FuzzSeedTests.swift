import Foundation
import Testing
import Zoetrope

/// The fixture seeds (`FuzzSeeds`, which `Scripts/fuzz.sh` writes out for the fuzzers) are
/// valid files, so the fuzzer starts from inputs that reach every frame.
@Suite struct FuzzSeedTests {
    @Test func everySeedDecodesWholly() throws {
        let seeds = try FuzzSeeds.all()
        #expect(Set(seeds.map(\.family)) == ["gif", "png", "webp", "avif", "jpeg", "encode", "colour"])
        for seed in seeds where seed.family != "colour" {
            // The coder target of the seed's family (the one Scripts/fuzz.sh gives it to), or
            // the encode target for its own inputs.
            let target = try #require(FuzzTarget.allCases.first { ($0.coder != nil || $0 == .encode) && $0.family == seed.family })
            let outcome = target.run(seed.data)
            #expect(outcome.isAcceptable && outcome.firstError == nil && outcome.frameCount > 0, "\(seed.name): \(outcome)")
        }
    }

    /// The `colour` seeds: every profile the project writes gives a transform that converts
    /// (the fast path within 1 of lcms2), the malformed ones and the refused declarations
    /// fail quietly, and all of them as the library promises.
    @Test func colourSeedsConvertOrFailQuietly() {
        let seeds = FuzzSeeds.colour()
        let written = Set(FuzzSeeds.profiles().map(\.name))
        #expect(written.count == 8)
        for seed in seeds {
            let outcome = FuzzTarget.colour.run(seed.data)
            #expect(outcome.isAcceptable, "\(seed.name): \(outcome)")
            if written.contains(seed.name) { #expect(outcome.framesDecoded == 1, "\(seed.name): \(outcome)") }
        }
        for name in ["truncated.icc", "header-only.icc", "cmyk-space.icc", "code-points-9-16", "code-points-200-300"] {
            let seed = seeds.first { $0.name == name }
            #expect(seed.map { FuzzTarget.colour.run($0.data).opened } == false, "\(name)")
        }
    }
}
