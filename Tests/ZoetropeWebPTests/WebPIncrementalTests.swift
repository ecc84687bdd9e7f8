import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// The incremental WebP source: the corpus and fixtures built here (with libwebp's muxer
/// and the project's own `WebPEncoder`), whole and damaged, fed in pieces give the
/// whole-file frames and info (or error), and fixtures pin when each piece of
/// information becomes known.
@Suite struct WebPIncrementalTests {
    static func corpusFiles() -> [URL] {
        guard let root = CorpusLocation.corpus()?.appendingPathComponent("webp"),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "webp" }.sorted { $0.path < $1.path }
    }

    static func gradient(_ w: Int, _ h: Int, alpha: UInt8 = 255) -> PixelBuffer {
        var b = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { b.setPixel(x: x, y: y, [UInt8(x * 255 / max(1, w - 1)), UInt8(y * 255 / max(1, h - 1)), UInt8((x * y) % 256), alpha]) }
        }
        return b
    }

    /// Blend and no-blend, a sub-rectangle, lossless.
    static func threeFrames() throws -> Data {
        try WebPFixture.animation(
            canvas: PixelSize(width: 16, height: 16),
            frames: [
                .init(pixels: gradient(16, 16), durationMs: 10),
                .init(pixels: WebPFixture.solid(4, 4, (255, 0, 0, 128)), x: 2, y: 2, durationMs: 20),
                .init(pixels: gradient(16, 16, alpha: 90), durationMs: 30, blend: .source),
            ], loopCount: 3)
    }

    /// The valid fixtures, each a different path through the container.
    static func fixtures() throws -> [(String, Data)] {
        let canvas = PixelSize(width: 20, height: 12)
        let disposing = try WebPFixture.animation(
            canvas: canvas,
            frames: [
                .init(pixels: gradient(20, 12), durationMs: 50, dispose: .background),
                .init(pixels: WebPFixture.solid(6, 4, (0, 255, 0, 255)), x: 4, y: 2, durationMs: 60, dispose: .background),
                .init(pixels: WebPFixture.solid(8, 8, (0, 0, 255, 100)), x: 10, y: 4, durationMs: 70),
                .init(pixels: gradient(10, 6, alpha: 200), x: 2, y: 6, durationMs: 80, blend: .source),
            ], loopCount: 0)
        let lossyAlpha = try WebPFixture.animation(
            canvas: canvas,
            frames: [
                .init(pixels: gradient(20, 12, alpha: 160), durationMs: 40, lossyQuality: 70),
                .init(pixels: gradient(8, 6), x: 6, y: 2, durationMs: 40, lossyQuality: 50),
                .init(pixels: WebPFixture.solid(12, 10, (200, 10, 10, 60)), x: 8, y: 2, durationMs: 40, lossyQuality: 80),
            ], loopCount: 1, metadata: true)
        let canvases = (0..<5).map { i -> PixelBuffer in
            var b = gradient(24, 16)
            b.fill(PixelRect(x: i * 3, y: i * 2, width: 6, height: 5), with: (UInt8(i * 50), 0, 255, i % 2 == 0 ? 255 : 0))
            return b
        }
        let frames = canvases.map { EncodingFrame(pixels: $0, duration: .milliseconds(40)) }
        let size = PixelSize(width: 24, height: 16)
        return [
            ("three frames", try threeFrames()),
            ("disposing", disposing),
            ("lossy with alpha and metadata", lossyAlpha),
            ("encoder lossless", try WebPEncoder().encode(frames, canvasSize: size, options: EncodingOptions(loopCount: .plays(2)))),
            ("encoder lossy", try WebPEncoder().encode(frames, canvasSize: size, options: EncodingOptions(loopCount: .infinite, quality: 60))),
            ("encoder still", try WebPEncoder().encode([frames[0]], canvasSize: size, options: EncodingOptions())),
            ("lossless still", try WebPFixture.still(gradient(7, 5, alpha: 200))),
            ("lossy still", try WebPFixture.still(gradient(9, 6), lossyQuality: 60)),
            ("lossy still with alpha", try WebPFixture.still(gradient(9, 6, alpha: 77), lossyQuality: 60)),
        ]
    }

    /// Damaged versions of `file`: cut at many points, trailing bytes, an unknown chunk of odd
    /// size, a RIFF size reaching past the data or with bytes left inside it.
    static func damaged(_ name: String, _ file: Data) -> [(String, Data)] {
        var out: [(String, Data)] = []
        let cuts = Set(stride(from: 1, to: file.count, by: max(1, file.count / 23)).map { $0 } + [11, 12, 19, 20, 21, 29, 30, 31])
        for cut in cuts.sorted() where cut < file.count { out.append(("\(name) cut at \(cut)", file.prefix(cut))) }
        out.append(("\(name) with trailing bytes", file + Data("trailing garbage".utf8)))
        var unknown = Data("ZZZZ".utf8) + Data([5, 0, 0, 0]) + Data([1, 2, 3, 4, 5, 0])
        var withUnknown = file
        withUnknown.append(unknown)
        setRIFFSize(&withUnknown, withUnknown.count - 8)
        out.append(("\(name) with an unknown chunk at the end", withUnknown))
        unknown.removeLast()  // the padding byte missing: the RIFF end cuts the chunk's padding
        var unpadded = file + unknown
        setRIFFSize(&unpadded, unpadded.count - 8)
        out.append(("\(name) with an unpadded last chunk", unpadded))
        var leftover = file + Data([1, 2, 3, 4])
        setRIFFSize(&leftover, leftover.count - 8)
        out.append(("\(name) with 4 bytes left in the RIFF chunk", leftover))
        var longer = file
        setRIFFSize(&longer, file.count + 92)
        out.append(("\(name) with a RIFF size past the data", longer))
        return out
    }

    static func setRIFFSize(_ file: inout Data, _ size: Int) {
        let i = file.startIndex
        for k in 0..<4 { file[i + 4 + k] = UInt8((size >> (8 * k)) & 0xFF) }
    }

    /// Frames whose headers or placement break, and containers libwebp's demuxer refuses.
    static func broken() throws -> [(String, Data)] {
        let file = try threeFrames()
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        var badSignature = file
        badSignature[anmf[1] + 32] = 0x00  // frame 1's VP8L signature byte
        var badFirst = file
        badFirst[anmf[0] + 32] = 0x00
        var outside = file
        outside[anmf[2] + 8] = 1  // frame 2 moved to x = 2: outside the canvas
        var noAnim = file
        let anim = WebPFixture.chunkOffsets(file, "ANIM")[0]
        noAnim.removeSubrange(anim..<anim + 14)
        setRIFFSize(&noAnim, noAnim.count - 8)
        var badFlags = file
        badFlags[20] |= 0x80
        var stillCanvas = try WebPFixture.still(WebPFixture.solid(6, 4, (10, 20, 30, 128)), lossyQuality: 80)
        stillCanvas[WebPFixture.chunkOffsets(stillCanvas, "VP8X")[0] + 12] = 6
        var tinyRIFF = file
        setRIFFSize(&tinyRIFF, 10)
        var notWebP = file
        notWebP[11] = UInt8(ascii: "X")
        return [
            ("frame 1's header broken", badSignature), ("frame 0's header broken", badFirst),
            ("frame 2 outside the canvas", outside), ("no ANIM chunk", noAnim), ("unknown VP8X flags", badFlags),
            ("still image not the canvas size", stillCanvas), ("RIFF size 10", tinyRIFF), ("not WEBP", notWebP),
            ("garbage", Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })),
        ]
    }

    static func expectFeedMatches(_ files: [(String, Data)], step: Int) -> Int {
        var checked = 0
        for (name, data) in files {
            let feed = IncrementalFeed(WebPCoder(), data: data, step: step)
            #expect(feed.problems.isEmpty, "\(name) in \(step)-byte pieces: \(feed.problems.joined(separator: "; "))")
            #expect(feed.framesWithdrawn == 0, "\(name) in \(step)-byte pieces")
            checked += feed.framesChecked
        }
        return checked
    }

    @Test(.enabled(if: CorpusLocation.isPresent, "../shared/corpus is absent"), arguments: [1, 7, 4096])
    func corpusFedInPiecesMatchesTheWholeFile(step: Int) throws {
        let files = try Self.corpusFiles().map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        #expect(files.count == 2)
        #expect(Self.expectFeedMatches(files, step: step) > 2)
    }

    @Test(arguments: [1, 7, 4096])
    func fixturesFedInPiecesMatchTheWholeFile(step: Int) throws {
        let files = try Self.fixtures()
        // Odd chunk sizes (padding) are among them.
        #expect(
            files.contains { name, data in
                WebPFixture.chunkOffsets(data, "ANMF").contains { data[$0 + 4] & 1 == 1 || data[$0 + 28] & 1 == 1 }
            })
        #expect(Self.expectFeedMatches(files, step: step) >= 20)
    }

    @Test(arguments: [1, 7, 4096])
    func damagedFilesFedInPiecesMatchTheWholeFile(step: Int) throws {
        for (name, file) in try Self.fixtures()
        where ["three frames", "lossy with alpha and metadata", "lossless still", "lossy still with alpha"].contains(name) {
            _ = Self.expectFeedMatches(Self.damaged(name, file), step: step)
        }
        _ = Self.expectFeedMatches(try Self.broken(), step: step)
    }

    @Test func walkerExaminesEachByteAtMostOnce() throws {
        var files = try Self.fixtures()
        files += try Self.corpusFiles().map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        var total = 0, size = 0
        for (name, data) in files {
            let source = WebPIncrementalSource(options: .default)
            for byte in data { _ = try? source.append(CollectionOfOne(byte)) }
            let whole = WebPIncrementalSource(options: .default)
            _ = try? whole.append(data)
            #expect(source.bytesExamined <= data.count, "\(name)")
            #expect(source.bytesExamined == whole.bytesExamined, "\(name)")
            #expect(source.snapshot.state == .complete, "\(name)")
            total += source.bytesExamined
            size += data.count
        }
        print("WebP files fed 1 byte at a time: the chunk walker examined \(total) of \(size) bytes")
        #expect(total > 0)
    }

    @Test func playsAreKnownAsSoonAsTheANIMChunkArrives() throws {
        let file = try Self.threeFrames()
        let bytes = [UInt8](file)
        let animEnd = try #require(WebPFixture.chunkOffsets(file, "ANIM").first) + 14
        let vp8xEnd = 12 + 18
        let source = WebPCoder().makeIncrementalSource(options: .default)
        for (i, byte) in bytes.enumerated() {
            let snapshot = try source.append([byte])
            let n = i + 1
            #expect(snapshot.loopCount == (n >= animEnd ? .plays(3) : nil), "after \(n) bytes")
            #expect(snapshot.storedLoopValue == (n >= animEnd ? 3 : nil), "after \(n) bytes")
            #expect(snapshot.format == (n >= 12 ? .webp : nil), "after \(n) bytes")
            #expect(snapshot.canvasSize == (n >= vp8xEnd ? PixelSize(width: 16, height: 16) : nil), "after \(n) bytes")
        }
        #expect(source.snapshot.state == .complete)
        #expect(source.snapshot.frameDurations == [.milliseconds(10), .milliseconds(20), .milliseconds(30)])
    }

    @Test func aStillFileKnowsItsCanvasFromTheBitstreamHeader() throws {
        let file = try WebPFixture.still(Self.gradient(7, 5, alpha: 200))
        let source = WebPCoder().makeIncrementalSource(options: .default)
        let snapshot = try source.append(file.prefix(12 + 8 + 5))
        #expect(snapshot.canvasSize == PixelSize(width: 7, height: 5))
        #expect(snapshot.loopCount == .once)
        #expect(snapshot.frameCount == 0)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try source.decodeFrame(at: 0) }
        try source.append(file.dropFirst(25))
        #expect(source.snapshot.state == .complete)
        #expect(try source.decodeFrame(at: 0) == Self.gradient(7, 5, alpha: 200))
    }

    @Test func framesArriveWithTheirANMFChunksAndDecodeAsTheWholeFile() throws {
        let file = try Self.threeFrames()
        let bytes = [UInt8](file)
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        let ends = anmf.dropFirst().map { $0 } + [file.count]
        let whole = try WebPCoder().makeFrameSource(data: file, options: .default)
        let source = WebPCoder().makeIncrementalSource(options: .default)
        try source.append(bytes[..<(ends[1] - 1)])
        #expect(source.snapshot.frameCount == 1)
        #expect(source.snapshot.hasAlpha == false)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 1, availableFrames: 1)) { try source.decodeFrame(at: 1) }
        #expect(try source.decodeFrame(at: 0) == whole.decodeFrame(at: 0))
        try source.append(bytes[(ends[1] - 1)..<ends[1]])
        #expect(source.snapshot.frameCount == 2)
        #expect(source.snapshot.hasAlpha == true)
        #expect(source.snapshot.state == .receiving)
        #expect(try source.decodeFrame(at: 1) == whole.decodeFrame(at: 1))
        try source.append(bytes[ends[1]...])
        #expect(source.snapshot.state == .complete)
        #expect(try source.decodeFrame(at: 2) == whole.decodeFrame(at: 2))
        #expect(try source.finish() == whole.info)
        #expect(throws: AnimatedImageError.frameOutOfRange(index: 3, frameCount: 3)) { try source.decodeFrame(at: 3) }
    }

    @Test func aBrokenFrameEndsTheAnimationAsSoonAsItArrives() throws {
        var file = try Self.threeFrames()
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        file[anmf[1] + 32] = 0x00  // frame 1's VP8L signature
        let whole = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(whole.info.frameCount == 1)
        let source = WebPCoder().makeIncrementalSource(options: .default)
        try source.append(file.prefix(anmf[2] - 1))
        #expect(source.snapshot.state == .receiving)
        let snapshot = try source.append(file[(anmf[2] - 1)..<anmf[2]])
        #expect(snapshot.state == .complete)
        #expect(snapshot.info == whole.info)
        #expect(snapshot.truncation == whole.info.truncation)
        #expect(try source.decodeFrame(at: 0) == whole.decodeFrame(at: 0))
        #expect(throws: whole.info.truncation!) { try source.decodeFrame(at: 1) }
    }

    @Test func aBrokenFirstFrameFailsTheSessionAsSoonAsItArrives() throws {
        var file = try Self.threeFrames()
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        file[anmf[0] + 32] = 0x00
        var expected: AnimatedImageError?
        do { _ = try WebPCoder().makeFrameSource(data: file, options: .default) } catch let e as AnimatedImageError { expected = e }
        let error = try #require(expected)
        let source = WebPCoder().makeIncrementalSource(options: .default)
        try source.append(file.prefix(anmf[1] - 1))
        #expect(throws: error) { try source.append(file[(anmf[1] - 1)..<anmf[1]]) }
        #expect(source.snapshot.state == .failed(error))
        #expect(throws: error) { try source.finish() }
    }

    @Test func corruptPixelDataFailsThatFrameAsInTheWholeFile() throws {
        var file = try Self.threeFrames()
        let third = try #require(WebPFixture.chunkOffsets(file, "ANMF").last)
        let size = Int(file[third + 28]) | Int(file[third + 29]) << 8
        for i in (third + 32 + 5)..<(third + 32 + size) { file[i] = 0xFF }
        let whole = try WebPCoder().makeFrameSource(data: file, options: .default)
        var wholeError: AnimatedImageError?
        do { _ = try whole.decodeFrame(at: 2) } catch let e as AnimatedImageError { wholeError = e }
        let source = WebPCoder().makeIncrementalSource(options: .default)
        for k in stride(from: 0, to: file.count, by: 7) { try source.append(file[k..<min(file.count, k + 7)]) }
        #expect(try source.finish() == whole.info)
        #expect(try source.decodeFrame(at: 1) == whole.decodeFrame(at: 1))
        #expect(throws: try #require(wholeError)) { try source.decodeFrame(at: 2) }
    }

    @Test func limitsAreCheckedAsFramesArrive() throws {
        let file = try Self.threeFrames()
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        let frameLimit = AnimatedImageError.limitExceeded(format: .webp, limit: .frameCount, requested: 3, allowed: 2)
        let source = WebPCoder().makeIncrementalSource(options: DecodingOptions(limits: Limits(maxFrameCount: 2)))
        try source.append(file.prefix(anmf[2] + 1))
        #expect(source.snapshot.frameCount == 2)
        #expect(throws: frameLimit) { try source.append(file.dropFirst(anmf[2] + 1)) }
        let playLimit = AnimatedImageError.limitExceeded(format: .webp, limit: .pixelsPerPlay, requested: 768, allowed: 512)
        #expect(throws: playLimit) {
            try WebPCoder().makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxPixelsPerPlay: 512)))
        }
        let plays = WebPCoder().makeIncrementalSource(options: DecodingOptions(limits: Limits(maxPixelsPerPlay: 512)))
        try plays.append(file.prefix(anmf[2] + 1))
        #expect(plays.snapshot.frameCount == 2)
        #expect(throws: playLimit) { try plays.append(file.dropFirst(anmf[2] + 1)) }
        let canvasLimit = AnimatedImageError.limitExceeded(format: .webp, limit: .width, requested: 16, allowed: 15)
        let narrow = WebPCoder().makeIncrementalSource(options: DecodingOptions(limits: Limits(maxWidth: 15)))
        try narrow.append(file.prefix(anmf[1] - 1))
        #expect(narrow.snapshot.canvasSize == PixelSize(width: 16, height: 16))
        #expect(throws: canvasLimit) { try narrow.append(file[(anmf[1] - 1)..<anmf[1]]) }
        // The whole-file budget: canvas 1024 + blending scratch 64 + largest frame 1024 bytes.
        let budget = AnimatedImageError.limitExceeded(format: .webp, limit: .allocationBytes, requested: 2112, allowed: 2111)
        let tight = WebPCoder().makeIncrementalSource(options: DecodingOptions(limits: Limits(maxAllocationBytes: 2111)))
        try tight.append(file.prefix(anmf[2] - 1))
        #expect(throws: budget) { try tight.append(file[(anmf[2] - 1)..<anmf[2]]) }
    }

    @Test func registryOpensAWebPIncrementalSource() throws {
        let file = try Self.threeFrames()
        let registry = CoderRegistry(builtIn: [WebPCoder()])
        let source = try #require(try registry.makeIncrementalSource(prefix: file.prefix(40)))
        try source.append(file.dropFirst(40))
        #expect(try source.finish() == WebPCoder().makeFrameSource(data: file, options: .default).info)
    }
}

extension WebPIncrementalTests {
    /// Whether the whole-file source indexes `data` and decodes all its frames, or refuses it
    /// (not: indexes it but fails a frame's pixels, which `IncrementalFeed` cannot compare).
    static func wholeFileDecidesAtTheIndex(_ data: Data) -> Bool {
        guard let source = try? WebPCoder().makeFrameSource(data: data, options: .default) else { return true }
        return (0..<source.info.frameCount).allSatisfy { (try? source.decodeFrame(at: $0)) != nil }
    }

    @Test func mutatedContainersFedInPiecesMatchTheWholeFile() throws {
        var random = SplitMix64(seed: 0x57E8_0015)
        let bases = try Self.fixtures().map(\.1)
        var compared = 0
        for round in 0..<2000 {
            var data = bases[round % bases.count]
            // Damage the container, not the pixels: chunk headers, sizes and frame fields.
            let offsets = [4, 5, 16, 20, 24, 28] + ["ANMF", "ANIM", "VP8L", "VP8 ", "ALPH", "VP8X"].flatMap { WebPFixture.chunkOffsets(data, $0) }
            for _ in 0..<(1 + Int(random.next() % 2)) {
                let at = offsets[Int(random.next() % UInt64(offsets.count))] + Int(random.next() % 34)
                guard at < data.count else { continue }
                data[at] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
            }
            if random.next() % 3 == 0 { data = data.prefix(Int(random.next() % UInt64(data.count + 1))) }
            guard Self.wholeFileDecidesAtTheIndex(data) else { continue }
            let step = [1, 3, 64][Int(random.next() % 3)]
            let feed = IncrementalFeed(WebPCoder(), data: data, step: step)
            // A frame reported before a later chunk fails the file may have a damaged
            // bitstream: it fails to decode, as it would in a whole file that kept it.
            let wholeFails = (try? WebPCoder().makeFrameSource(data: data, options: .default)) == nil
            // A file the walker cannot follow chunk by chunk reports its frames when its RIFF
            // end arrives or at finish(): a truncated one, only at finish().
            let deferred = WebPIncrementalSource(options: .default)
            _ = try? deferred.append(data)
            let problems = feed.problems.filter {
                !(wholeFails && $0.contains("does not decode: webp: invalid data: frame"))
                    && !(deferred.isDeferred && $0.contains("frames reported, the whole file has"))
            }
            #expect(problems.isEmpty, "round \(round), \(step)-byte pieces: \(problems.joined(separator: "; "))")
            #expect(feed.framesWithdrawn == 0, "round \(round)")
            compared += 1
        }
        #expect(compared > 1000)
    }
}

extension WebPIncrementalTests {
    @Test func framesDecodedAsTheyArriveAreEachDecodedOnce() throws {
        for (name, file) in try Self.fixtures() {
            let source = WebPIncrementalSource(options: .default)
            var shown = 0
            for k in stride(from: 0, to: file.count, by: 7) {
                let snapshot = try source.append(file[k..<min(file.count, k + 7)])
                var buffer = PixelBuffer()
                while shown < snapshot.frameCount { try source.decodeFrame(at: shown, into: &buffer); shown += 1 }
            }
            #expect(shown == source.snapshot.frameCount, "\(name)")
            #expect(source.decodedFrameCount == shown, "\(name)")
        }
    }
}

extension WebPIncrementalTests {
    /// A canvas past `maxWidth`, frame 1's image chunk declaring more bytes than its ANMF
    /// chunk holds, and the data (or the RIFF size) ending inside the last frame: libwebp's
    /// demuxer takes the file while frame 1 is incomplete and refuses it once it is, so
    /// pieces used to fail on the canvas limit where the whole file named the cut chunk.
    static func oversizedCanvasCutInsideTheLastFrame() throws -> [(String, Data)] {
        var file = try #require(try fixtures().first { $0.0 == "disposing" }).1
        file[26] |= 0x40  // canvas width 4,194,324
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        try #require(anmf.count == 4)
        file[anmf[1] + 30] |= 0x02  // frame 1's VP8L chunk: 128 KiB more than its ANMF holds
        let cut = anmf[3] + 18
        var riffShort = file
        setRIFFSize(&riffShort, cut - 8)
        return [("data cut inside the last frame", file.prefix(cut)), ("RIFF size ending inside the last frame", riffShort)]
    }

    @Test(arguments: [1, 7, 4096])
    func anOversizedCanvasGivesTheWholeFilesErrorInPieces(step: Int) throws {
        let limit = AnimatedImageError.limitExceeded(format: .webp, limit: .width, requested: 4_194_324, allowed: 65_535)
        for (name, data) in try Self.oversizedCanvasCutInsideTheLastFrame() {
            #expect(throws: limit, "\(name)") { try WebPCoder().makeFrameSource(data: data, options: .default) }
            let feed = IncrementalFeed(WebPCoder(), data: data, step: step)
            #expect(feed.problems.isEmpty, "\(name) in \(step)-byte pieces: \(feed.problems.joined(separator: "; "))")
        }
    }
}
