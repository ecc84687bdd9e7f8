import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

/// The bulk path on damaged files: for seeded mutations of every corpus file (the same
/// mutator as `CorpusMutationTests`, other rounds), a bulk run on two and three threads gives
/// exactly the frames and the error that decoding one frame after another gives. Damage
/// is where a payload decoded ahead could disagree with the one-frame path (a frame whose
/// data stops early, a corrupt bitstream after good frames). `ZOETROPE_BULK_MUTATIONS` sets
/// the rounds per file (default 6).
@Suite struct BulkMutationTests {
    static let rounds = max(0, ProcessInfo.processInfo.environment["ZOETROPE_BULK_MUTATIONS"].flatMap(Int.init) ?? 6)

    @Test(
        "bulk runs over damaged files match decoding one frame after another",
        .enabled(if: CorpusFile.isPresent, "the corpus (../shared/corpus) is absent"),
        arguments: CorpusFile.all)
    func bulkMatchesOneByOne(_ file: CorpusFile) throws {
        let original = [UInt8](try Data(contentsOf: file.url))
        for round in 0..<BulkMutationTests.rounds {
            // Rounds past the ones CorpusMutationTests runs, so these are other cases.
            let seed = CorpusMutationTests.seed(file.name, round: 1_000 + round)
            var rng = SplitMix64(seed: seed)
            var bytes = original
            CorpusMutationTests.mutate(&bytes, using: &rng)
            let data = Data(bytes)
            let options = FuzzHarness.options(for: data)
            guard let probe = try? FuzzHarness.registry.makeFrameSource(data: data, options: options),
                probe.info.frameCount <= FuzzHarness.frameCap
            else { continue }
            let check = BulkDecodingCheck { try FuzzHarness.registry.makeFrameSource(data: data, options: options) }
            let violations = try check.violations(threads: [2, 3])
            #expect(violations.isEmpty, "\(file.name) round \(1_000 + round) (seed \(seed)): \(violations)")
        }
    }
}
