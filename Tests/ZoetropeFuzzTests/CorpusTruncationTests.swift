import Foundation
import Testing
import Zoetrope

/// Every prefix of every corpus file, through its coder (open, info, every frame up to the
/// fuzz cap, a seek): the frames that are complete, or a typed `AnimatedImageError`, never
/// a trap or another error. Files over 20 KB are cut at every 97th length and at each of
/// their last 64 lengths. `ZOETROPE_TRUNCATION_STRIDE` (default 1) keeps every Nth of
/// those lengths, for a quicker run.
@Suite struct CorpusTruncationTests {
    static let stride = max(1, ProcessInfo.processInfo.environment["ZOETROPE_TRUNCATION_STRIDE"].flatMap(Int.init) ?? 1)

    /// The prefix lengths cut from a file of `count` bytes (the whole file excluded).
    static func lengths(count: Int) -> [Int] {
        let all =
            count > 20 * 1024
            ? Array(Swift.stride(from: 0, to: count - 64, by: 97)) + Array(max(0, count - 64)..<count)
            : Array(0..<count)
        return Swift.stride(from: 0, to: all.count, by: stride).map { all[$0] }
    }

    @Test(
        "every prefix decodes its complete frames or throws AnimatedImageError",
        .enabled(if: CorpusFile.isPresent, "the corpus (../shared/corpus) is absent"),
        arguments: CorpusFile.all)
    func everyPrefix(_ file: CorpusFile) throws {
        let data = try Data(contentsOf: file.url)
        for length in CorpusTruncationTests.lengths(count: data.count) {
            let outcome = file.target.run(data.prefix(length))
            #expect(outcome.isAcceptable, "\(file.name) cut to \(length) of \(data.count) bytes: \(outcome)")
        }
    }

    @Test(.enabled(if: CorpusTruncationTests.stride == 1, "ZOETROPE_TRUNCATION_STRIDE changes the rule"))
    func prefixLengthsFollowTheRule() {
        #expect(CorpusTruncationTests.lengths(count: 5) == [0, 1, 2, 3, 4])
        let big = CorpusTruncationTests.lengths(count: 30_000)
        #expect(big.prefix(3) == [0, 97, 194])
        #expect(big.suffix(64) == Array(29_936..<30_000))
        #expect(big.count == (29_936 + 96) / 97 + 64)
    }
}
