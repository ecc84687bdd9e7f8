import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// The incremental PNG/APNG source: the corpus fed in pieces gives the whole-file frames
/// and info, and fixtures built here pin when each piece of information becomes known.
@Suite struct APNGIncrementalTests {
    static func corpusFiles() -> [URL] {
        guard let root = CorpusLocation.corpus()?.appendingPathComponent("apng"),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["png", "apng"].contains($0.pathExtension) }
            .filter { !$0.path.contains(".frames/") }.sorted { $0.path < $1.path }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"), arguments: [1, 7, 4096])
    func corpusFedInPiecesMatchesTheWholeFile(step: Int) throws {
        let files = Self.corpusFiles()
        #expect(files.count == 54)
        var checked = 0, withdrawn = 0
        for url in files {
            let feed = IncrementalFeed(APNGCoder(), data: try Data(contentsOf: url), step: step)
            #expect(feed.problems.isEmpty, "\(url.lastPathComponent) in \(step)-byte pieces: \(feed.problems.joined(separator: "; "))")
            checked += feed.framesChecked
            withdrawn += feed.framesWithdrawn
        }
        #expect(checked > 100)
        // Files whose animation chunks break after some frames fall back to the still image
        // (in 4 KiB pieces the corpus's small files arrive at once, so nothing is withdrawn).
        if step == 1 { #expect(withdrawn > 0) }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func appendingExaminesEachByteOnce() throws {
        var total = 0, size = 0
        for url in Self.corpusFiles() {
            let data = try Data(contentsOf: url)
            let source = APNGIncrementalSource(options: .default)
            for byte in data { _ = try? source.append(CollectionOfOne(byte)) }
            var whole = APNGChunkWalker(limits: .default)
            try? data.withUnsafeBytes { try whole.advance($0) }
            #expect(source.bytesExamined <= data.count, "\(url.lastPathComponent)")
            #expect(source.bytesExamined == whole.bytesExamined, "\(url.lastPathComponent)")
            total += source.bytesExamined
            size += data.count
        }
        print("APNG corpus fed 1 byte at a time: the chunk walker examined \(total) of \(size) bytes")
        #expect(total > 0)
    }

    static let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], green: [UInt8] = [0, 255, 0, 255]

    static func writer(plays: UInt32 = 3) -> APNGWriter {
        APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, red, delayNumerator: 1, delayDenominator: 10),
                .solid(width: 1, height: 1, blue, delayNumerator: 2, delayDenominator: 10),
                .solid(x: 1, y: 1, width: 1, height: 1, green, delayNumerator: 3, delayDenominator: 10),
            ], plays: plays)
    }

    /// Where each chunk of `w` ends in its file.
    static func chunkEnds(_ w: APNGWriter) -> [(type: String, end: Int)] {
        var offset = 8
        return w.chunks.map { c in
            offset += 12 + c.payload.count
            return (c.type, offset)
        }
    }

    @Test func playsAreKnownAsSoonAsTheAcTLArrives() throws {
        let w = Self.writer()
        let bytes = [UInt8](w.data)
        let acTLEnd = try #require(Self.chunkEnds(w).first { $0.type == "acTL" }).end
        let source = APNGCoder().makeIncrementalSource(options: .default)
        for (i, byte) in bytes.enumerated() {
            let snapshot = try source.append([byte])
            #expect(snapshot.loopCount == (i + 1 >= acTLEnd ? .plays(3) : nil), "after \(i + 1) bytes")
            #expect(snapshot.format == (i + 1 >= acTLEnd ? .apng : i + 1 >= 8 ? .png : nil), "after \(i + 1) bytes")
            #expect((snapshot.canvasSize != nil) == (i + 1 >= 33), "after \(i + 1) bytes")
        }
        #expect(source.snapshot.state == .complete)
        #expect(source.snapshot.frameDurations == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
    }

    @Test func framesArriveAtTheirChunkBoundariesAndDecodeAsTheWholeFile() throws {
        let w = Self.writer()
        let bytes = [UInt8](w.data)
        let ends = Self.chunkEnds(w)
        let whole = try APNGCoder().makeFrameSource(data: w.data, options: .default)
        let source = APNGCoder().makeIncrementalSource(options: .default)
        // Frame 0 (the IDAT image) is complete once the chunk after its IDAT run is in; frame
        // 1 once the fcTL of frame 2 is.
        let afterIDAT = try #require(ends.firstIndex { $0.type == "IDAT" }) + 1
        try source.append(bytes[..<(ends[afterIDAT].end - 1)])
        #expect(source.snapshot.frameCount == 0)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try source.decodeFrame(at: 0) }
        try source.append(bytes[(ends[afterIDAT].end - 1)..<ends[afterIDAT].end])
        #expect(source.snapshot.frameCount == 1)
        #expect(try source.decodeFrame(at: 0) == whole.decodeFrame(at: 0))
        let thirdFcTL = ends.enumerated().filter { $0.element.type == "fcTL" }[2].offset
        try source.append(bytes[ends[afterIDAT].end..<ends[thirdFcTL].end])
        #expect(source.snapshot.frameCount == 2)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 2, availableFrames: 2)) { try source.decodeFrame(at: 2) }
        #expect(try source.decodeFrame(at: 1) == whole.decodeFrame(at: 1))
        try source.append(bytes[ends[thirdFcTL].end...])
        #expect(try source.decodeFrame(at: 2) == whole.decodeFrame(at: 2))
        #expect(try source.finish() == whole.info)
    }

    @Test func aBrokenAnimationChunkFallsBackToTheStillImageWhenItArrives() throws {
        var w = Self.writer()
        // The fcTL of frame 2 gets a wrong sequence number: the whole file is its still image.
        let third = w.chunks.indices.filter { w.chunks[$0].type == "fcTL" }[2]
        w.chunks[third].payload[3] ^= 0x40
        let bytes = [UInt8](w.data)
        let end = Self.chunkEnds(w)[third].end
        let whole = try APNGCoder().makeFrameSource(data: w.data, options: .default)
        #expect(whole.info.format == .png && whole.info.frameCount == 1)
        let source = APNGCoder().makeIncrementalSource(options: .default)
        try source.append(bytes[..<(end - 1)])
        // Frame 1 would be complete with the fcTL that turns out broken: frame 0 is reported.
        #expect(source.snapshot.format == .apng)
        #expect(source.snapshot.frameDurations == [.milliseconds(100)])
        #expect(source.snapshot.revision == 0)
        let snapshot = try source.append(bytes[(end - 1)..<end])
        #expect(snapshot.format == .png)
        #expect(snapshot.frameDurations == [.zero])
        #expect(snapshot.revision == 1)
        #expect(try source.decodeFrame(at: 0) == whole.decodeFrame(at: 0))
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 1, availableFrames: 1)) { try source.decodeFrame(at: 1) }
        try source.append(bytes[end...])
        #expect(try source.finish() == whole.info)
    }

    @Test func aCorruptCriticalChunkFailsTheSessionWhenItArrives() throws {
        var w = Self.writer()
        w.chunks[0].crcOverride = 1  // IHDR
        let bytes = [UInt8](w.data)
        let expected = AnimatedImageError.invalidData(format: .png, reason: "IHDR CRC mismatch")
        #expect(throws: expected) { try APNGCoder().makeFrameSource(data: w.data, options: .default) }
        let source = APNGCoder().makeIncrementalSource(options: .default)
        try source.append(bytes[..<32])
        #expect(throws: expected) { try source.append(bytes[32..<33]) }
        #expect(source.snapshot.state == .failed(expected))
        #expect(throws: expected) { try source.finish() }
    }

    @Test func finishOnAFileCutMidFrameGivesTheWholeFileTruncation() throws {
        let w = Self.writer()
        let bytes = [UInt8](w.data)
        for cut in stride(from: 40, to: bytes.count, by: 9) {
            let data = Data(bytes[..<cut])
            let source = APNGCoder().makeIncrementalSource(options: .default)
            try source.append(data)
            do {
                let whole = try APNGCoder().makeFrameSource(data: data, options: .default)
                #expect(try source.finish() == whole.info, "cut at \(cut)")
                for i in 0..<whole.info.frameCount {
                    #expect(try source.decodeFrame(at: i) == whole.decodeFrame(at: i), "cut at \(cut), frame \(i)")
                }
            } catch let error as AnimatedImageError {
                #expect(throws: error) { try source.finish() }
            }
        }
    }
}
