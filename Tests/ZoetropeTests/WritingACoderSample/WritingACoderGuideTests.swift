import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

/// The sample coder of `Docs/WritingACoder.md` works, keeps the `FrameSource` contract, and
/// the guide's code is the code compiled here.
@Suite struct WritingACoderGuideTests {
    static let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    static func fill(_ w: Int, _ h: Int, _ rgba: [UInt8]) -> [UInt8] { Array([[UInt8]](repeating: rgba, count: w * h).joined()) }

    /// 4×2: red canvas, a translucent patch restored afterwards, a blue half cleared
    /// afterwards, then a patch on what is left.
    static let file = RectFramesCoder.encode(
        width: 4, height: 2, plays: 2,
        frames: [
            .init(rect: FrameRect(x: 0, y: 0, width: 4, height: 2), blend: 0, rgba: fill(4, 2, red)),
            .init(rect: FrameRect(x: 1, y: 0, width: 2, height: 2), dispose: 2, rgba: fill(2, 2, [0, 255, 0, 128])),
            .init(rect: FrameRect(x: 0, y: 0, width: 2, height: 2), dispose: 1, rgba: fill(2, 2, blue)),
            .init(rect: FrameRect(x: 3, y: 1, width: 1, height: 1), rgba: [9, 9, 9, 255]),
        ])

    @Test func theSampleDecodesThroughARegistry() throws {
        let registry = CoderRegistry(builtIn: [])
        registry.register(RectFramesCoder())  // application coders are asked first
        let source = try registry.makeFrameSource(data: Self.file)
        #expect(source.info.format == RectFramesCoder.format)
        #expect(source.info.loopCount == .plays(2))
        let last = try source.decodeFrame(at: 3)
        // Frame 2's blue half was cleared to transparent; frame 1's patch was restored away.
        #expect(last.pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(last.pixel(x: 2, y: 0) == Self.red)
        #expect(last.pixel(x: 3, y: 1) == [9, 9, 9, 255])
        #expect(try source.decodeFrame(at: 1).pixel(x: 1, y: 1) == [127, 128, 0, 255])
    }

    @Test func theSampleKeepsTheFrameSourceContract() {
        #expect(FrameSourceContract(coder: RectFramesCoder(), data: Self.file).violations() == [])
    }

    /// Every ```swift block of the guide appears, whitespace aside, in the sample's files.
    @Test func theGuidesCodeIsTheSamplesCode() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let guide = try String(contentsOf: CorpusLocation.packageRoot.appendingPathComponent("Docs/WritingACoder.md"), encoding: .utf8)
        let sources = try ["RectFramesCoder.swift", "RectFrameSource.swift", "WritingACoderGuideTests.swift"]
            .map { try String(contentsOf: here.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
        func squeezed(_ s: some StringProtocol) -> String { String(s.filter { !$0.isWhitespace }) }
        let code = squeezed(sources)
        let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 5)
        for block in blocks {
            let quoted = code.contains(squeezed(block))
            #expect(quoted, "not in the sample: \(block)")
        }
    }
}
