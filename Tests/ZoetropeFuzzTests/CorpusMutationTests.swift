import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

/// Seeded random damage to every corpus file, through its coder (open, info, every frame up
/// to the fuzz cap, a seek): frames or a typed `AnimatedImageError`, never a trap or another
/// error. Each round applies one to four mutations (bit flips, random or boundary bytes and
/// 32-bit words, deleted, repeated or inserted ranges) to the original file. The seed comes
/// from the file's name and the round, so a failure names a reproducible case.
/// `ZOETROPE_MUTATIONS` sets the rounds per file (default 24: about 3,600 in all).
@Suite struct CorpusMutationTests {
    static let rounds = max(0, ProcessInfo.processInfo.environment["ZOETROPE_MUTATIONS"].flatMap(Int.init) ?? 24)

    /// FNV-1a of the name: a seed that does not change with the order files are found in.
    static func seed(_ name: String, round: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h ^ UInt64(round)
    }

    static let boundaryBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
    static let boundaryWords: [UInt32] = [0, 1, 0x7F, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]

    /// Applies one to four mutations to `bytes`.
    static func mutate(_ bytes: inout [UInt8], using rng: inout SplitMix64) {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !bytes.isEmpty else { bytes = [UInt8.random(in: 0...255, using: &rng)]; continue }
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: bytes[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: bytes[i] = UInt8.random(in: 0...255, using: &rng)
            case 2: bytes[i] = boundaryBytes.randomElement(using: &rng)!
            case 3:
                // A boundary 32-bit word, big- or little-endian (sizes in PNG/ISO-BMFF, RIFF).
                let word = boundaryWords.randomElement(using: &rng)!
                let bigEndian = Bool.random(using: &rng)
                for k in 0..<min(4, bytes.count - i) {
                    bytes[i + k] = UInt8(truncatingIfNeeded: bigEndian ? word >> (24 - 8 * k) : word >> (8 * k))
                }
            case 4: bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...64, using: &rng)))
            case 5:
                let range = i..<min(bytes.count, i + Int.random(in: 1...64, using: &rng))
                bytes.insert(contentsOf: Array(bytes[range]), at: Int.random(in: 0...bytes.count, using: &rng))
            case 6: bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: i)
            default: bytes.removeSubrange(i...)
            }
        }
    }

    @Test(
        "seeded mutations decode or throw AnimatedImageError",
        .enabled(if: CorpusFile.isPresent, "the corpus (../shared/corpus) is absent"),
        arguments: CorpusFile.all)
    func mutations(_ file: CorpusFile) throws {
        let original = [UInt8](try Data(contentsOf: file.url))
        for round in 0..<CorpusMutationTests.rounds {
            let seed = CorpusMutationTests.seed(file.name, round: round)
            var rng = SplitMix64(seed: seed)
            var bytes = original
            CorpusMutationTests.mutate(&bytes, using: &rng)
            let outcome = file.target.run(Data(bytes))
            #expect(outcome.isAcceptable, "\(file.name) round \(round) (seed \(seed)): \(outcome)")
        }
    }
}
