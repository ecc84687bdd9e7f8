import Foundation
import Testing
import Zoetrope

@testable import ZoetropeJPEG

@Suite struct JPEGBadInputTests {
    static let baseline = JPEGFixtures.compress(JPEGFixtures.gradient(width: 48, height: 40), width: 48, height: 40)
    static let progressive = JPEGFixtures.compress(
        JPEGFixtures.gradient(width: 48, height: 40), width: 48, height: 40,
        progressive: true)

    static func error(_ data: Data, options: DecodingOptions = .default) -> AnimatedImageError? {
        do {
            _ = try JPEGCoder().makeFrameSource(data: data, options: options).decodeFrame(at: 0)
            return nil
        } catch {
            return error as? AnimatedImageError
        }
    }

    /// The offset of the SOF segment's height field.
    static func frameHeaderSize(_ jpeg: Data) -> Int {
        let b = [UInt8](jpeg)
        var i = 2
        while !(b[i] == 0xFF && (b[i + 1] == 0xC0 || b[i + 1] == 0xC2)) { i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3])) }
        return i + 5
    }

    @Test(arguments: [0.3, 0.6, 0.9, 0.999])
    func aTruncatedFileIsATypedTruncation(fraction: Double) {
        for file in [Self.baseline, Self.progressive] {
            let cut = file.prefix(Int(Double(file.count) * fraction))
            guard case .truncated(.jpeg, 0, _)? = Self.error(Data(cut)) else {
                Issue.record("cut at \(cut.count) of \(file.count): \(String(describing: Self.error(Data(cut))))")
                continue
            }
        }
    }

    @Test func onlyTheEndOfImageMarkerMissingIsATruncation() {
        guard case .truncated(.jpeg, 0, let reason)? = Self.error(Self.baseline.dropLast(2)) else {
            Issue.record("not a truncation: \(String(describing: Self.error(Self.baseline.dropLast(2))))")
            return
        }
        #expect(reason.contains("end-of-image"))
        #expect(Self.error(Self.baseline + Data([1, 2, 3])) == nil)  // bytes after EOI are ignored
    }

    @Test func aHugeDeclaredSizeFailsTheLimitsBeforeDecoding() {
        var huge = [UInt8](Self.progressive)
        let at = Self.frameHeaderSize(Self.progressive)
        huge.replaceSubrange(at..<at + 4, with: [0xFF, 0xF0, 0xFF, 0xF0])  // 65520 × 65520
        #expect(
            Self.error(Data(huge))
                == .limitExceeded(
                    format: .jpeg, limit: .canvasPixels, requested: 65520 * 65520,
                    allowed: Limits.default.maxCanvasPixels))
        // Inside the size limits, outside the allocation limit: a progressive file also
        // counts its coefficients.
        let limits = Limits(maxAllocationBytes: 48 * 40 * 4 * 2)
        guard case .limitExceeded(.jpeg, .allocationBytes, let requested, _)? = Self.error(Self.progressive, options: DecodingOptions(limits: limits))
        else {
            Issue.record("not an allocation limit")
            return
        }
        #expect(requested == 48 * 40 * 4 + 3 * 2 * 48 * 48)
        #expect(Self.error(Self.baseline, options: DecodingOptions(limits: limits)) == nil)
        #expect(
            Self.error(Self.baseline, options: DecodingOptions(limits: Limits(maxWidth: 47)))
                == .limitExceeded(format: .jpeg, limit: .width, requested: 48, allowed: 47))
    }

    @Test func structuralDamageIsInvalidDataAndLibraryErrorsAreTyped() {
        #expect(Self.error(Data([0xFF, 0xD8])) == .insufficientData(format: .jpeg, needed: 3, available: 2))
        guard case .invalidData(.jpeg, _)? = Self.error(Data([0xFF, 0xD8, 0xFF, 0xD9])) else { Issue.record("no frame"); return }
        guard case .invalidData(.jpeg, _)? = Self.error(Data([0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xD9])) else { Issue.record("two SOI"); return }
        // A quantisation table numbered 7: libjpeg-turbo refuses it while decoding.
        var bytes = [UInt8](Self.baseline)
        let dqt = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB }!
        bytes[dqt + 4] = 0x07
        guard case .invalidData(.jpeg, let reason)? = Self.error(Data(bytes)) else {
            Issue.record("bogus DQT: \(String(describing: Self.error(Data(bytes))))")
            return
        }
        #expect(!reason.isEmpty)
        // 12-bit samples and lossless frames are named as unsupported.
        var twelve = [UInt8](Self.baseline)
        twelve[Self.frameHeaderSize(Self.baseline) - 1] = 12
        #expect(Self.error(Data(twelve)) == .unsupported(format: .jpeg, feature: "12-bit samples"))
    }

    @Test func concealedEntropyDamageStillDecodes() throws {
        // Flip bytes in the middle of the scan: libjpeg-turbo warns and conceals.
        var bytes = [UInt8](Self.baseline)
        let sos = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }!
        for k in stride(from: sos + 40, to: bytes.count - 40, by: 37) where bytes[k] != 0xFF && bytes[k - 1] != 0xFF {
            bytes[k] = bytes[k] == 0x00 ? 0x01 : bytes[k] ^ 0x55
            if bytes[k] == 0xFF { bytes[k] = 0x7F }
        }
        let frame = try JPEGCoder().makeFrameSource(data: Data(bytes), options: .default).decodeFrame(at: 0)
        #expect(frame == JPEGFixtures.referenceAllowingWarnings(Data(bytes)).pixels)
        // A restart marker in the middle of a scan that has none: libjpeg-turbo stops the
        // scan there with a warning the marker walk cannot see (RST is entropy-coded data to it).
        var cut = [UInt8](Self.baseline)
        let middle = (sos + cut.count) / 2
        cut[middle] = 0xFF
        cut[middle + 1] = 0xD0
        let source = try JPEGCoder().makeFrameSource(data: Data(cut), options: .default)
        #expect(source.info.warnings == [])
        let reference = JPEGFixtures.referenceAllowingWarnings(Data(cut))
        #expect(try source.decodeFrame(at: 0) == reference.pixels)
        _ = try source.decodeFrame(at: 0)  // reported once however often the frame is decoded
        #expect(reference.warning == "Corrupt JPEG data: premature end of data segment")
        #expect((source as? any DecodeWarningReporting)?.decodeWarnings == [reference.warning!])
    }
}
