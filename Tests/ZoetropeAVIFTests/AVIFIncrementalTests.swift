import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// The incremental AVIF source: the corpus and sequences made by `AVIFEncoder`, fed in
/// pieces, give the whole-file frames and info; fixtures built here pin when each piece of
/// information becomes known, for both layouts (metadata before or after the sample data).
@Suite struct AVIFIncrementalTests {
    static func corpusFiles() -> [URL] {
        guard let root = CorpusLocation.corpus()?.appendingPathComponent("avif"),
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["avif", "avifs"].contains($0.pathExtension) }
            .filter { !$0.path.contains(".frames/") }.sorted { $0.path < $1.path }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"), arguments: [1, 7, 4096])
    func corpusFedInPiecesMatchesTheWholeFile(step: Int) throws {
        let files = Self.corpusFiles()
        #expect(files.count == 11)
        var checked = 0
        for url in files {
            let feed = IncrementalFeed(AVIFCoder(), data: try Data(contentsOf: url), step: step)
            #expect(feed.problems.isEmpty, "\(url.lastPathComponent) in \(step)-byte pieces: \(feed.problems.joined(separator: "; "))")
            #expect(feed.framesWithdrawn == 0, "\(url.lastPathComponent)")
            checked += feed.framesChecked
        }
        #expect(checked >= 40)
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func appendingExaminesEachByteAtMostOnce() throws {
        var total = 0, size = 0
        for url in Self.corpusFiles() {
            let data = try Data(contentsOf: url)
            let source = AVIFIncrementalSource(options: .default)
            for byte in data { _ = try? source.append(CollectionOfOne(byte)) }
            #expect(source.bytesExamined <= data.count, "\(url.lastPathComponent)")
            // The box headers and the metadata were read; the sample data was not.
            let mdat = try Self.topLevel(data).first { $0.type == "mdat" }!.range
            #expect(source.bytesExamined > 0 && source.bytesExamined <= data.count - mdat.count + 8, "\(url.lastPathComponent)")
            total += source.bytesExamined
            size += data.count
        }
        print("AVIF corpus fed 1 byte at a time: the box scan and the metadata parse examined \(total) of \(size) bytes")
    }

    // MARK: Sequences made by AVIFEncoder

    static let durations: [FrameDuration] = [.milliseconds(40), .milliseconds(60), .milliseconds(80), .milliseconds(100)]

    /// A 4-frame lossless sequence playing 3 times: ftyp, meta, moov, mdat (what libavif's writer produces).
    static func sequence() throws -> Data {
        let frames = AVIFEncoderTests.frames(4)
        return try AVIFEncoderTests.encode(frames, durations: durations, loop: .plays(3))
    }

    /// The top-level boxes of `data`: type and byte range.
    static func topLevel(_ data: Data) throws -> [(type: String, range: Range<Int>)] {
        try data.withUnsafeBytes { raw in
            try ISOBoxScanner.boxes(in: raw, range: 0..<raw.count, parent: "file").boxes.map { ($0.typeName, $0.start..<$0.end) }
        }
    }

    /// `data` with its `meta` and `moov` moved after `mdat`, a `free` box of their size left
    /// where they were so that every sample offset stays right: the sample data comes before
    /// the metadata that locates it.
    static func metadataLast(_ data: Data) throws -> Data {
        let boxes = try topLevel(data)
        let metadata = boxes.filter { $0.type == "meta" || $0.type == "moov" }
        let hole = metadata.reduce(0) { $0 + $1.range.count }
        var out = Data()
        for box in boxes where box.type != "meta" && box.type != "moov" {
            if box.type == "mdat" {
                out += withUnsafeBytes(of: UInt32(hole).bigEndian) { Data($0) } + Data("free".utf8) + Data(count: hole - 8)
            }
            out += data[box.range]
        }
        for box in metadata { out += data[box.range] }
        return out
    }

    @Test func encodedSequenceWritesTheMetadataBeforeTheSamples() throws {
        #expect(try Self.topLevel(Self.sequence()).map(\.type) == ["ftyp", "meta", "moov", "mdat"])
    }

    @Test(arguments: [1, 7, 4096])
    func encodedSequenceFedInPiecesMatchesTheWholeFile(step: Int) throws {
        let feed = IncrementalFeed(AVIFCoder(), data: try Self.sequence(), step: step)
        #expect(feed.problems.isEmpty, "\(feed.problems)")
        #expect(feed.framesChecked == 4)
    }

    @Test func stillsFedInPiecesMatchTheWholeFileInBothLayouts() throws {
        let still = try AVIFEncoderTests.encode(AVIFEncoderTests.frames(1), durations: [.milliseconds(100)], loop: .once, quality: 80)
        let layouts = [still, try Self.metadataLast(still)]
        #expect(try layouts.map { try Self.topLevel($0).map(\.type) } == [["ftyp", "meta", "mdat"], ["ftyp", "free", "mdat", "meta"]])
        for (n, data) in layouts.enumerated() {
            for step in [1, 7, 4096] {
                let feed = IncrementalFeed(AVIFCoder(), data: data, step: step)
                #expect(feed.problems.isEmpty, "layout \(n), \(step)-byte pieces: \(feed.problems)")
                #expect(feed.framesChecked == 1)
            }
        }
    }

    @Test func truncatedSequencesMatchTheWholeFile() throws {
        let data = try Self.sequence()
        let mdat = try Self.topLevel(data).first { $0.type == "mdat" }!.range
        // Inside ftyp, meta, moov, the mdat header, and through the samples.
        var cuts = [10, 60, mdat.lowerBound - 5, mdat.lowerBound + 4]
        cuts += stride(from: mdat.lowerBound + 8, to: data.count, by: max(1, mdat.count / 13)).map { $0 }
        for cut in cuts {
            for step in [7, 4096] {
                let feed = IncrementalFeed(AVIFCoder(), data: data.prefix(cut), step: step)
                #expect(feed.problems.isEmpty, "cut at \(cut) of \(data.count), \(step)-byte pieces: \(feed.problems)")
            }
        }
    }

    @Test func framesArriveWithTheirSamplesAndTheInfoWithTheMetadata() throws {
        let data = try Self.sequence()
        let boxes = try Self.topLevel(data)
        let ftyp = boxes[0].range, moov = boxes.first { $0.type == "moov" }!.range, mdat = boxes.first { $0.type == "mdat" }!.range
        let source = AVIFCoder().makeIncrementalSource(options: .default)
        var snapshot = try source.append(data.prefix(ftyp.upperBound - 1))
        #expect(snapshot.format == nil)
        snapshot = try source.append(data[ftyp.upperBound - 1..<ftyp.upperBound])
        #expect(snapshot.format == .avif)
        #expect(snapshot.canvasSize == nil)
        snapshot = try source.append(data[ftyp.upperBound..<moov.upperBound - 1])
        #expect(snapshot.canvasSize == nil && snapshot.frameCount == 0)
        snapshot = try source.append(data[moov.upperBound - 1..<mdat.lowerBound + 8])
        #expect(snapshot.canvasSize == AVIFEncoderTests.size)
        #expect(snapshot.loopCount == .plays(3))
        #expect(snapshot.hasAlpha == true)
        #expect(snapshot.frameCount == 0)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try source.decodeFrame(at: 0) }
        // Frame by frame as the samples arrive, each one exactly the whole-file frame.
        let whole = try AVIFCoder().makeFrameSource(data: data, options: .default)
        var counts: [Int] = []
        for offset in mdat.lowerBound + 8..<data.count {
            snapshot = try source.append(data[offset..<offset + 1])
            if counts.last != snapshot.frameCount { counts.append(snapshot.frameCount) }
        }
        #expect(counts == [0, 1, 2, 3, 4])
        #expect(snapshot.frameDurations == Self.durations)
        #expect(snapshot.state == .receiving)
        for i in 0..<4 { #expect(try source.decodeFrame(at: i) == whole.decodeFrame(at: i), "frame \(i)") }
        #expect(try source.finish() == whole.info)
        #expect(source.snapshot.state == .complete)
        #expect(throws: AnimatedImageError.frameOutOfRange(index: 4, frameCount: 4)) { try source.decodeFrame(at: 4) }
    }

    @Test func aFrameNotYetCompleteThrowsATypedError() throws {
        let data = try Self.sequence()
        let source = AVIFCoder().makeIncrementalSource(options: .default)
        let snapshot = try source.append(data.prefix(data.count - 1))
        #expect(snapshot.frameCount == 3)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 3, availableFrames: 3)) { try source.decodeFrame(at: 3) }
        _ = try source.decodeFrame(at: 2)
        try source.append(data.suffix(1))
        #expect(try source.decodeFrame(at: 3) == AVIFCoder().makeFrameSource(data: data, options: .default).decodeFrame(at: 3))
    }

    @Test func samplesBeforeTheMetadataShowNothingUntilTheMetadataArrives() throws {
        let data = try Self.metadataLast(Self.sequence())
        let boxes = try Self.topLevel(data)
        #expect(boxes.map(\.type) == ["ftyp", "free", "mdat", "meta", "moov"])
        let moov = boxes.last!.range
        let source = AVIFCoder().makeIncrementalSource(options: .default)
        var snapshot = try source.append(data.prefix(moov.upperBound - 1))
        #expect(snapshot.format == .avif)
        #expect(snapshot.canvasSize == nil && snapshot.frameCount == 0)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try source.decodeFrame(at: 0) }
        snapshot = try source.append(data.suffix(1))
        #expect(snapshot.frameCount == 4)
        let whole = try AVIFCoder().makeFrameSource(data: data, options: .default)
        #expect(snapshot.info == whole.info)
        for i in 0..<4 { #expect(try source.decodeFrame(at: i) == whole.decodeFrame(at: i), "frame \(i)") }
        for step in [1, 7, 4096] {
            let feed = IncrementalFeed(AVIFCoder(), data: data, step: step)
            #expect(feed.problems.isEmpty, "\(step)-byte pieces: \(feed.problems)")
            #expect(feed.framesChecked == 4)
        }
    }

    @Test func limitsFailAsSoonAsTheMetadataArrives() throws {
        let data = try Self.sequence()
        let moov = try Self.topLevel(data).first { $0.type == "moov" }!.range
        let options = DecodingOptions(limits: Limits(maxFrameCount: 3))
        let expected = #expect(throws: AnimatedImageError.self) { try AVIFCoder().makeFrameSource(data: data, options: options) }
        let source = AVIFCoder().makeIncrementalSource(options: options)
        try source.append(data.prefix(moov.upperBound - 1))
        let got = #expect(throws: AnimatedImageError.self) { try source.append(data[moov.upperBound - 1..<moov.upperBound]) }
        #expect(got == expected)
        #expect(throws: expected!) { try source.finish() }
    }

    @Test func hostileBoxesFedInPiecesMatchTheWholeFile() throws {
        let huge = try AVIFHostileBoxTests.sequenceWithHugeMdat()
        let cases: [(String, Data)] = [
            ("mdat claiming 1 GiB", huge),
            ("cut mdat claiming 1 GiB", huge.prefix(huge.count - 40)),
            (
                "trailing free claiming 1 GiB",
                try AVIFSequenceDecodingTests.alphaSequence()
                    + Data(BoxBytes.u32(AVIFHostileBoxTests.gibibyte) + Array("free".utf8) + [1, 2, 3, 4])
            ),
            ("10,000 nested moov", AVIFHostileBoxTests.nested("moov", depth: 10_000)),
            ("nested box past its parent", AVIFHostileBoxTests.nested("abcd", depth: 10, innermost: BoxBytes.u32(100) + Array("wxyz".utf8))),
            ("top-level box smaller than its header", Data(BoxBytes.ftyp("avis", ["avif", "avis"]) + BoxBytes.u32(4) + Array("free".utf8))),
        ]
        for (name, data) in cases {
            for step in [7, 4096] {
                let feed = IncrementalFeed(AVIFCoder(), data: data, step: step, options: AVIFHostileBoxTests.tight)
                #expect(feed.problems.isEmpty, "\(name), \(step)-byte pieces: \(feed.problems)")
            }
        }
        // The session holds the bytes that arrived, not what a header claims.
        let source = AVIFCoder().makeIncrementalSource(options: AVIFHostileBoxTests.tight)
        try source.append(huge)
        #expect(source.snapshot.frameCount == 3)
        for i in 0..<3 { _ = try source.decodeFrame(at: i) }
        #expect(source.retainedByteCount < 4096 + 32 * 24 * 4 + 4096)
    }
}

extension AVIFIncrementalTests {
    /// A download thread appends while a player thread decodes what has arrived: the buffer
    /// grows (and moves) under the libavif decoder between decodes, and every frame decoded
    /// meanwhile is the whole-file frame.
    @Test func appendingOnOneThreadWhileDecodingOnAnother() async throws {
        let bytes = [UInt8](try Self.sequence())
        let problems = await IncrementalFeed.concurrently(AVIFCoder(), data: Data(bytes), step: 13)
        #expect(problems.isEmpty, "\(problems)")
    }
}
