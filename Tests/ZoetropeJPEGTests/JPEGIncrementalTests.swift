import CTurboJPEG
import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeJPEG

/// The incremental JPEG source: a progressive file shows each scan as it arrives, and ends as
/// the whole file decodes.
@Suite struct JPEGIncrementalTests {
    /// A progressive 4:2:0 file of libjpeg-turbo's simple progression (ten scans).
    static func progressive(width: Int = 96, height: Int = 64) -> Data {
        JPEGFixtures.compress(
            JPEGFixtures.gradient(width: width, height: height), width: width, height: height,
            subsampling: TJSAMP_420, quality: 90, progressive: true)
    }

    /// Feeds `data` in pieces of `step` bytes; returns each picture shown (the decode of frame
    /// 0 whenever the snapshot has a new one) and the session.
    static func feed(_ data: Data, step: Int, options: DecodingOptions = .default) throws
        -> (pictures: [PixelBuffer], session: any IncrementalFrameSource)
    {
        let session = JPEGCoder().makeIncrementalSource(options: options)
        var pictures: [PixelBuffer] = []
        var shown: (revision: Int, count: Int) = (0, 0)
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + step)
            let snapshot = try session.append(data[offset..<end])
            if snapshot.frameCount == 1, (snapshot.revision, snapshot.frameCount) != (shown.revision, shown.count) {
                pictures.append(try session.decodeFrame(at: 0))
            }
            shown = (snapshot.revision, snapshot.frameCount)
            offset = end
        }
        try session.finish()
        return (pictures, session)
    }

    @Test func progressiveScansAppearAsTheyArriveAndEndAsTheWholeFile() throws {
        let jpeg = Self.progressive()
        let whole = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        let expected = try whole.decodeFrame(at: 0)
        let scans = jpeg.ranges(of: Data([0xFF, 0xDA])).count
        #expect(scans == 10)
        // Byte by byte: one picture per scan, each finer than the one before.
        let (pictures, session) = try Self.feed(jpeg, step: 1)
        #expect(pictures.count == scans)
        #expect(pictures.last == expected)
        #expect(Set(pictures.map(\.bytes)).count == scans)
        let errors = pictures.map { JPEGFixtures.maxDifference($0, expected.packedBytes) }
        #expect(errors.first! > errors.last!)
        // In pieces of 400 bytes, a piece that completes two scans draws only the later one.
        let pieces = try Self.feed(jpeg, step: 400).pictures
        #expect(pieces.count > 1 && pieces.count < scans)
        #expect(pieces.last == expected)
        #expect(session.snapshot.state == .complete)
        #expect(session.snapshot.info == whole.info)
        #expect(try session.decodeFrame(at: 0) == expected)
    }

    @Test func theFirstScanIsAFullSizeCoarsePicture() throws {
        let jpeg = Self.progressive()
        let expected = try JPEGCoder().makeFrameSource(data: jpeg, options: .default).decodeFrame(at: 0)
        let session = JPEGCoder().makeIncrementalSource(options: .default)
        var offset = 0
        while session.snapshot.frameCount == 0, offset < jpeg.count {
            try session.append(jpeg[offset..<min(jpeg.count, offset + 16)])
            offset += 16
        }
        // The DC scan is in, and far from the end of the file.
        #expect(offset < jpeg.count / 2)
        #expect(session.snapshot.state == .receiving)
        #expect(session.snapshot.canvasSize == PixelSize(width: 96, height: 64))
        let first = try session.decodeFrame(at: 0)
        #expect(first.size == expected.size)
        #expect(first != expected)
        // Opaque, and the gradient already there: every pixel near the final one.
        #expect(first.packedBytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        #expect(JPEGFixtures.maxDifference(first, expected.packedBytes) <= 48)
        let distinct = Set(stride(from: 0, to: first.packedBytes.count, by: 4).map { first.packedBytes[$0] })
        #expect(distinct.count > 8)
    }

    @Test(arguments: [1, 7, 100, 1000, 1 << 20])
    func everyFeedMatchesTheWholeFile(step: Int) throws {
        let feed = IncrementalFeed(JPEGCoder(), data: Self.progressive(), step: step)
        #expect(feed.problems == [])
        #expect(feed.framesChecked == 1)
    }

    @Test(arguments: [
        DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied),
        DecodingOptions(targetSize: PixelSize(width: 20, height: 20)), DecodingOptions(pixelFormat: .rgba16),
    ])
    func everyKindOfFileMatchesTheWholeFile(options: DecodingOptions) throws {
        let gradient = JPEGFixtures.gradient(width: 41, height: 27)
        let grey = (0..<(41 * 27)).map { UInt8($0 % 251) }
        let cmyk = (0..<(41 * 27 * 4)).map { UInt8(($0 * 7) % 256) }
        let files = [
            JPEGFixtures.compress(gradient, width: 41, height: 27),
            JPEGFixtures.compress(gradient, width: 41, height: 27, subsampling: TJSAMP_422, progressive: true),
            JPEGFixtures.withOrientation(Self.progressive(width: 41, height: 27), 6),
            JPEGFixtures.compress(grey, width: 41, height: 27, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY, progressive: true),
            JPEGFixtures.compress(cmyk, width: 41, height: 27, pixelFormat: TJPF_CMYK, progressive: true),
        ]
        for (k, file) in files.enumerated() {
            for step in [13, 400] {
                let feed = IncrementalFeed(JPEGCoder(), data: file, step: step, options: options)
                #expect(feed.problems == [], "file \(k), pieces of \(step)")
            }
        }
    }

    @Test func aBaselineFileShowsNothingUntilItsEnd() throws {
        let jpeg = JPEGFixtures.compress(JPEGFixtures.gradient(width: 64, height: 48), width: 64, height: 48)
        let session = JPEGCoder().makeIncrementalSource(options: .default)
        try session.append(jpeg.dropLast(2))
        #expect(session.snapshot.frameCount == 0)
        #expect(session.snapshot.canvasSize == PixelSize(width: 64, height: 48))
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try session.decodeFrame(at: 0) }
        try session.append(jpeg.suffix(2))
        #expect(session.snapshot.state == .complete)
        #expect(try session.decodeFrame(at: 0) == JPEGFixtures.reference(jpeg))
    }

    @Test func aBaselineFileEndsAtItsEndMarkerNotAtTheSameBytesInAComment() throws {
        let plain = JPEGFixtures.compress(JPEGFixtures.gradient(width: 24, height: 16), width: 24, height: 16)
        // A comment after the scan whose text holds FF D9.
        let jpeg = plain.dropLast(2) + Data([0xFF, 0xFE, 0x00, 0x06, 0x61, 0xFF, 0xD9, 0x62, 0xFF, 0xD9])
        let session = JPEGCoder().makeIncrementalSource(options: .default)
        for (k, byte) in jpeg.enumerated() {
            try session.append([byte])
            #expect((session.snapshot.state == .complete) == (k == jpeg.count - 1), "after byte \(k)")
        }
        #expect(try session.decodeFrame(at: 0) == JPEGFrameSource(data: jpeg, options: .default).decodeFrame(at: 0))
    }

    @Test func aTruncatedFileEndsWithTheWholeFileErrorAndKeepsItsPicture() throws {
        let jpeg = Self.progressive()
        let cut = jpeg.prefix(jpeg.count * 2 / 3)
        let expected = FrameSourceContract.error { _ = try JPEGCoder().makeFrameSource(data: cut, options: .default) }
        #expect(expected?.isTruncation == true)
        let session = JPEGCoder().makeIncrementalSource(options: .default)
        try session.append(cut)
        #expect(session.snapshot.frameCount == 1)
        #expect(FrameSourceContract.error { try session.finish() } == expected)
        #expect(session.snapshot.state == .failed(expected!))
        #expect(FrameSourceContract.error { try session.append(Data([0])) } == expected)
        // The coarse picture shown before the end still decodes.
        #expect(try session.decodeFrame(at: 0).size == PixelSize(width: 96, height: 64))
    }

    @Test func keepsTheFrameSourceContractOnceComplete() throws {
        for jpeg in [Self.progressive(), JPEGFixtures.withOrientation(Self.progressive(width: 33, height: 21), 8)] {
            let contract = FrameSourceContract {
                let session = JPEGCoder().makeIncrementalSource(options: .default)
                try session.append(jpeg)
                try session.finish()
                return session.frameSource()!
            }
            #expect(contract.violations() == [])
        }
    }

    @Test func theAllocationLimitCountsTheCoefficientsBeforeAnyIsAllocated() throws {
        let jpeg = Self.progressive(width: 256, height: 256)
        // Room for the whole-file decode, not for the session's pictures and coefficients.
        let wholeBudget = JPEGFrameSource.budget(try JPEGMarkerScannerHeader.of(jpeg), options: .default).total
        var limits = Limits.default
        limits.maxAllocationBytes = wholeBudget + jpeg.count
        let options = DecodingOptions(limits: limits)
        #expect(throws: Never.self) { try JPEGCoder().makeFrameSource(data: jpeg, options: options).decodeFrame(at: 0) }
        let session = JPEGCoder().makeIncrementalSource(options: options)
        let error = FrameSourceContract.error { try session.append(jpeg) }
        guard case .limitExceeded(_, .allocationBytes, _, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(session.snapshot.frameCount == 0)
    }

    @Test func concealedDamageIsAWarningAsFromTheWholeFile() throws {
        var jpeg = [UInt8](Self.progressive())
        // Bytes of the first scan's data changed (no 0xFF made or broken): libjpeg-turbo
        // conceals what it cannot decode, with a warning.
        let header = Data(jpeg).ranges(of: Data([0xFF, 0xDA]))[1].upperBound
        let data = header + (Int(jpeg[header]) << 8 | Int(jpeg[header + 1]))
        var end = data
        while !(jpeg[end] == 0xFF && jpeg[end + 1] != 0) { end += 1 }
        for k in (data + 2)..<(end - 2) where jpeg[k] != 0xFF && jpeg[k - 1] != 0xFF { jpeg[k] = (jpeg[k] &* 7 &+ 13) & 0x7F }
        let whole = try JPEGFrameSource(data: Data(jpeg), options: .default)
        let expected = try whole.decodeFrame(at: 0)
        #expect(whole.decodeWarnings.count == 1)
        let session = try #require(JPEGCoder().makeIncrementalSource(options: .default) as? JPEGIncrementalSource)
        for piece in stride(from: 0, to: jpeg.count, by: 100) { try session.append(jpeg[piece..<min(jpeg.count, piece + 100)]) }
        #expect(try session.finish() == whole.info)
        #expect(try session.decodeFrame(at: 0) == expected)
        #expect(session.decodeWarnings == whole.decodeWarnings)
    }

    @Test func aHeaderDeclaringMoreThanItsDataCanFillAllocatesNothing() throws {
        // The small file's frame header made to declare 4000×4000: its thousand bytes of scan
        // data could not fill that (the whole-file bound), so no coefficients are allocated.
        var jpeg = [UInt8](Self.progressive())
        let sof = try #require(Data(jpeg).firstRange(of: Data([0xFF, 0xC2]))).upperBound
        jpeg.replaceSubrange((sof + 3)..<(sof + 7), with: [0x0F, 0xA0, 0x0F, 0xA0])
        let expected = FrameSourceContract.error { _ = try JPEGCoder().makeFrameSource(data: Data(jpeg), options: .default) }
        #expect(expected?.isTruncation == true)
        let session = JPEGCoder().makeIncrementalSource(options: .default)
        try session.append(jpeg)
        #expect(session.snapshot.canvasSize == PixelSize(width: 4000, height: 4000))
        #expect(session.snapshot.frameCount == 0)
        #expect(session.retainedByteCount < 64 << 10)
        #expect(FrameSourceContract.error { try session.finish() } == expected)
    }

    @Test func oneByteAtATimeNeverTrapsOnDamagedFiles() throws {
        let jpeg = [UInt8](Self.progressive(width: 40, height: 24))
        var random = SplitMix64(seed: 40)
        for _ in 0..<12 {
            var damaged = jpeg
            for _ in 0..<4 { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
            let session = JPEGCoder().makeIncrementalSource(options: .default)
            for byte in damaged {
                if (try? session.append([byte])) == nil { break }
                if session.snapshot.frameCount == 1 { _ = try? session.decodeFrame(at: 0) }
            }
            _ = try? session.finish()
            _ = try? session.decodeFrame(at: 0)
        }
    }
}

extension AnimatedImageError {
    fileprivate var isTruncation: Bool {
        if case .truncated = self { return true }
        return false
    }
}

/// The marker walk's header of a whole file.
enum JPEGMarkerScannerHeader {
    static func of(_ jpeg: Data) throws -> JPEGHeader {
        try jpeg.withUnsafeBytes { raw throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) }
    }
}
