import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// The incremental GIF source: the corpus fed in pieces gives the whole-file frames and
/// info, and fixtures built here pin when each piece of information becomes known.
@Suite struct GIFIncrementalTests {
    static func corpusFiles() -> [URL] {
        guard let root = CorpusLocation.corpus()?.appendingPathComponent("gif"),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "gif" }.sorted { $0.path < $1.path }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"), arguments: [1, 7, 4096])
    func corpusFedInPiecesMatchesTheWholeFile(step: Int) throws {
        let files = Self.corpusFiles()
        #expect(files.count == 84)
        var checked = 0
        for url in files {
            let feed = IncrementalFeed(GIFCoder(), data: try Data(contentsOf: url), step: step)
            #expect(feed.problems.isEmpty, "\(url.lastPathComponent) in \(step)-byte pieces: \(feed.problems.joined(separator: "; "))")
            #expect(feed.framesWithdrawn == 0)
            checked += feed.framesChecked
        }
        #expect(checked > 100)
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func appendingExaminesEachByteOnce() throws {
        var total = 0, size = 0
        for url in Self.corpusFiles() {
            let data = try Data(contentsOf: url)
            let source = GIFIncrementalSource(options: .default)
            for byte in data { _ = try? source.append(CollectionOfOne(byte)) }
            var whole = GIFIndexParser(limits: .default)
            try? data.withUnsafeBytes { try whole.advance($0) }
            // The same bytes as the whole-file pass, each once: O(file size) however it is split.
            #expect(source.bytesExamined <= data.count, "\(url.lastPathComponent)")
            #expect(source.bytesExamined == whole.bytesExamined, "\(url.lastPathComponent)")
            total += source.bytesExamined
            size += data.count
        }
        print("GIF corpus fed 1 byte at a time: the parser examined \(total) of \(size) bytes")
        #expect(total > 0)
    }

    /// Two 2×2 frames after a loop block storing 2 (3 plays).
    static func fixture(trailer: Bool = true) -> (bytes: [UInt8], loopEnd: Int, frameEnds: [Int]) {
        var w = GIFWriter(width: 2, height: 2, globalColors: [(255, 0, 0), (0, 0, 255)])
        w.loop(2)
        let loopEnd = w.bytes.count - 1  // the loop sub-block, before its terminator
        var ends: [Int] = []
        for i in 0..<2 {
            w.graphicControl(delay: 5 + i)
            w.image(width: 2, height: 2, indices: [UInt8(i), 1, 0, UInt8(1 - i)])
            ends.append(w.bytes.count)
        }
        if trailer { w.trailer() }
        return (w.bytes, loopEnd, ends)
    }

    @Test func playsAreKnownAsSoonAsTheLoopBlockArrives() throws {
        let (bytes, loopEnd, _) = Self.fixture()
        let source = GIFCoder().makeIncrementalSource(options: .default)
        for (i, byte) in bytes.enumerated() {
            let snapshot = try source.append([byte])
            #expect(snapshot.loopCount == (i + 1 >= loopEnd ? .plays(3) : nil), "after \(i + 1) bytes")
            #expect((snapshot.canvasSize != nil) == (i + 1 >= loopEnd + 1 + 8 + 10), "after \(i + 1) bytes")
        }
        #expect(source.snapshot.state == .complete)
    }

    @Test func aFrameNotYetCompleteThrowsTheTypedError() throws {
        let (bytes, _, ends) = Self.fixture()
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        let source = GIFCoder().makeIncrementalSource(options: .default)
        try source.append(bytes[..<(ends[1] - 3)])
        #expect(source.snapshot.frameCount == 1)
        #expect(source.snapshot.frameDurations == [.centiseconds(5)])
        #expect(try source.decodeFrame(at: 0) == whole.decodeFrame(at: 0))
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 1, availableFrames: 1)) {
            try source.decodeFrame(at: 1)
        }
        #expect(
            AnimatedImageError.frameNotYetAvailable(index: 1, availableFrames: 1).localizedDescription
                == "frame 1 has not arrived yet (1 complete frame so far; more data may bring it)")
        try source.append(bytes[(ends[1] - 3)...])
        #expect(try source.decodeFrame(at: 1) == whole.decodeFrame(at: 1))
        #expect(try source.finish() == whole.info)
    }

    @Test func aCorruptBlockFailsWhenItArrivesKeepingTheFramesBefore() throws {
        var (bytes, _, _) = Self.fixture(trailer: false)
        bytes += [0x99, 0x3B]
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        let source = GIFCoder().makeIncrementalSource(options: .default)
        try source.append(bytes.dropLast(2))
        #expect(source.snapshot.state == .receiving)
        let snapshot = try source.append([0x99])
        #expect(snapshot.state == .complete)
        #expect(snapshot.frameCount == 2)
        #expect(snapshot.truncation == .invalidData(format: .gif, reason: "unknown block 0x99 at offset \(bytes.count - 2) after 2 frames"))
        #expect(snapshot.info == whole.info)
        #expect(try source.decodeFrame(at: 1) == whole.decodeFrame(at: 1))
    }

    @Test func finishOnAFileCutMidFrameGivesTheWholeFileTruncation() throws {
        let (bytes, _, ends) = Self.fixture()
        for cut in [ends[0] + 5, ends[1] - 1, ends[0] - 4] {
            let data = Data(bytes[..<cut])
            let source = GIFCoder().makeIncrementalSource(options: .default)
            try source.append(data)
            #expect(source.snapshot.state == .receiving)
            do {
                let whole = try GIFCoder().makeFrameSource(data: data, options: .default)
                #expect(try source.finish() == whole.info)
                #expect(whole.info.truncation != nil)
            } catch let error as AnimatedImageError {
                // Cut inside frame 0: the whole file fails, and so does finish.
                #expect(cut < ends[0])
                #expect(throws: error) { try source.finish() }
                #expect(source.snapshot.state == .failed(error))
            }
        }
    }

    @Test func aPassedLimitFailsTheSessionWithTheWholeFileError() throws {
        let (bytes, _, _) = Self.fixture()
        let options = DecodingOptions(limits: Limits(maxFrameCount: 1))
        let expected = AnimatedImageError.limitExceeded(format: .gif, limit: .frameCount, requested: 2, allowed: 1)
        #expect(throws: expected) { try GIFCoder().makeFrameSource(data: Data(bytes), options: options) }
        let source = GIFCoder().makeIncrementalSource(options: options)
        #expect(throws: expected) { try source.append(bytes) }
        #expect(throws: expected) { try source.append([0]) }
        #expect(source.snapshot.frameCount == 1)
        #expect(try source.decodeFrame(at: 0).size == PixelSize(width: 2, height: 2))
    }

    /// A 0×1 screen, an empty first image (which leaves the canvas as the screen), then a
    /// 1×1 image: the whole file fails to open, and a session fails as soon as the empty
    /// image's descriptor says the canvas has no area (it once reported frames on a 0×1
    /// canvas and decoded them as 1×1; found by the `incremental` fuzz target).
    @Test(arguments: [false, true])
    func aCanvasWithoutAreaFailsTheSessionWithTheWholeFileError(partialFirstFrame: Bool) throws {
        let bytes: [UInt8] =
            Array("GIF89a".utf8) + [0, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
            + [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]  // empty image
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]  // 1×1, index 0
        let options = DecodingOptions(showsPartialFirstFrame: partialFirstFrame)
        let expected = AnimatedImageError.invalidData(format: .gif, reason: "the logical screen is 0×1 and no image gives it a size")
        #expect(throws: expected) { try GIFCoder().makeFrameSource(data: Data(bytes), options: options) }
        for step in [1, 7, bytes.count] {
            let source = GIFCoder().makeIncrementalSource(options: options)
            var thrown: AnimatedImageError?
            var offset = 0
            while offset < bytes.count, thrown == nil {
                let end = min(bytes.count, offset + step)
                do { _ = try source.append(Array(bytes[offset..<end])) } catch { thrown = error as? AnimatedImageError }
                offset = end
            }
            #expect(thrown == expected, "step \(step)")
            // The error arrives with the empty image's descriptor, before the 1×1 image.
            if step == 1 { #expect(offset == 6 + 7 + 6 + 10) }
            #expect(source.snapshot.frameCount == 0)
            #expect(throws: expected) { try source.finish() }
        }
    }

    /// The application knows the length: the session holds the whole file from the start
    /// (one allocation, no copies as it grows) and decodes the same frames. A hint larger
    /// than the allocation limit reserves only up to it.
    @Test func aLengthHintReservesTheFileOnceWithinTheLimits() throws {
        var rng = SplitMix64(seed: 3)
        var w = GIFWriter(width: 64, height: 64, globalColors: (0..<256).map { (UInt8($0), UInt8($0), 0) })
        for _ in 0..<3 { w.image(width: 64, height: 64, indices: (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
        let bytes = w.file
        #expect(bytes.count > 3 * 4096)
        func storage(_ session: any IncrementalFrameSource) throws -> (capacity: Int, base: UnsafeMutableRawPointer) {
            let gif = try #require(session as? GIFIncrementalSource)
            return gif.ingest.withLock { ($0.bytes.capacity, $0.bytes.storage.base) }
        }
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        let source = GIFCoder().makeIncrementalSource(options: .default)
        source.reserveCapacity(bytes.count)
        let reserved = try storage(source)
        let page = IncrementalByteStorage.pageSize
        #expect(reserved.capacity == (bytes.count + page - 1) / page * page)
        for piece in stride(from: 0, to: bytes.count, by: 500) {
            try source.append(Array(bytes[piece..<min(bytes.count, piece + 500)]))
        }
        // The bytes never moved to another allocation.
        #expect(try storage(source) == reserved)
        #expect(try source.finish() == whole.info)
        #expect(try (0..<3).map { try source.decodeFrame(at: $0) } == (0..<3).map { try whole.decodeFrame(at: $0) })

        // Without the hint the same appends grow the buffer in place, a quarter at a time.
        let plain = GIFCoder().makeIncrementalSource(options: .default)
        let start = try storage(plain)
        for piece in stride(from: 0, to: bytes.count, by: 500) {
            try plain.append(Array(bytes[piece..<min(bytes.count, piece + 500)]))
        }
        let grown = try storage(plain)
        #expect(grown.base == start.base)
        #expect(grown.capacity >= bytes.count && grown.capacity <= bytes.count + bytes.count / 4 + page)

        // A hint past the allocation limit (a hostile Content-Length) reserves the limit.
        let capped = GIFCoder().makeIncrementalSource(options: DecodingOptions(limits: Limits(maxAllocationBytes: 1 << 20)))
        capped.reserveCapacity(.max)
        #expect(try storage(capped).capacity == 1 << 20)
        try capped.append(bytes)
        #expect(capped.snapshot.frameCount == 3)
    }

    @Test func aFrameSourceViewIsTheWholeFileSourceOnceComplete() throws {
        let (bytes, _, _) = Self.fixture()
        let source = GIFCoder().makeIncrementalSource(options: .default)
        #expect(source.frameSource() == nil)
        try source.append(bytes)
        let view = try #require(source.frameSource())
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        #expect(view.info == whole.info)
        let decoder = BulkFrameDecoder(source: view, threads: 1)
        var pixels = PixelBuffer()
        var count = 0
        while let i = try decoder.nextFrame(into: &pixels) {
            #expect(pixels == (try whole.decodeFrame(at: i)))
            count += 1
        }
        #expect(count == 2)
    }
}

extension GIFIncrementalTests {
    /// A download thread appends while a player thread decodes what has arrived: appending
    /// never waits for a decode, and every frame decoded meanwhile is the whole-file frame.
    @Test func appendingOnOneThreadWhileDecodingOnAnother() async throws {
        let palette: [GIFWriter.Color] = (0..<16).map { (i: Int) -> GIFWriter.Color in
            (r: UInt8(i * 16), g: 0, b: UInt8(255 - i * 16))
        }
        var w = GIFWriter(width: 16, height: 16, globalColors: palette)
        var random = SplitMix64(seed: 15)
        for _ in 0..<30 {
            w.graphicControl(delay: 4)
            let indices: [UInt8] = (0..<256).map { _ in UInt8(truncatingIfNeeded: random.next() % 16) }
            w.image(width: 16, height: 16, indices: indices)
        }
        w.trailer()
        let bytes = w.bytes
        let problems = await IncrementalFeed.concurrently(GIFCoder(), data: Data(bytes), step: 97)
        #expect(problems.isEmpty, "\(problems)")
    }
}
