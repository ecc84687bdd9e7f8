import CTurboJPEG
import Foundation
import Testing
import Zoetrope

@testable import ZoetropeJPEG

/// A JPEG costs work in proportion to what it holds: a few hundred bytes declaring a huge
/// canvas, or a progressive header libjpeg-turbo would refuse, fail at open, before any
/// raster is allocated.
@Suite struct JPEGWorkBoundTests {
    static func opening(_ data: Data) -> AnimatedImageError? {
        do {
            _ = try JPEGCoder().makeFrameSource(data: data, options: .default)
            return nil
        } catch {
            return error as? AnimatedImageError
        }
    }

    /// A 16×16 file whose frame header is patched to declare `width`×`height`.
    static func declaring(width: Int, height: Int, progressive: Bool) -> Data {
        let small = JPEGFixtures.compress(JPEGFixtures.gradient(width: 16, height: 16), width: 16, height: 16, progressive: progressive)
        var bytes = [UInt8](small)
        let at = JPEGBadInputTests.frameHeaderSize(small)
        bytes.replaceSubrange(at..<at + 4, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return Data(bytes)
    }

    @Test(arguments: [false, true])
    func aFewHundredBytesDeclaring8192SquaredAreRefusedAtOpen(progressive: Bool) throws {
        let jpeg = Self.declaring(width: 8192, height: 8192, progressive: progressive)
        #expect(jpeg.count < 1000)
        let header = try jpeg.withUnsafeBytes { raw throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) }
        // 4:4:4, three components: 3 × 1024 × 1024 blocks, 2 bits each (sequential) or 1 (progressive).
        let needed = 3 * 1024 * 1024 * (progressive ? 1 : 2) / 8
        #expect(header.minimumScanByteCount == needed)
        #expect(
            Self.opening(jpeg)
                == .truncated(
                    format: .jpeg, completeFrames: 0,
                    reason: "its image data (\(header.scanByteCount) bytes) cannot fill the 8192×8192 frame it declares (at least \(needed) bytes)"))
        // The size limits still speak first for what they refuse.
        #expect(
            Self.opening(Self.declaring(width: 65000, height: 65000, progressive: progressive))
                == .limitExceeded(format: .jpeg, limit: .canvasPixels, requested: 65000 * 65000, allowed: Limits.default.maxCanvasPixels))
    }

    @Test(arguments: [false, true])
    func theSmallestDataAFrameCanHoldStillOpens(progressive: Bool) throws {
        // A flat grey 512×512 picture, greyscale and 4:2:0: as little data per block as
        // libjpeg-turbo's tables write.
        let grey = [UInt8](repeating: 128, count: 512 * 512)
        let rgba = [UInt8](repeating: 128, count: 512 * 512 * 4)
        for (jpeg, components) in [
            (
                JPEGFixtures.compress(
                    grey, width: 512, height: 512, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY, quality: 10, progressive: progressive), 1
            ),
            (JPEGFixtures.compress(rgba, width: 512, height: 512, subsampling: TJSAMP_420, quality: 10, progressive: progressive), 3),
        ] {
            let header = try jpeg.withUnsafeBytes { raw throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) }
            #expect(header.components == components)
            #expect(header.scanByteCount >= header.minimumScanByteCount && header.minimumScanByteCount > 0)
            #expect(try JPEGCoder().makeFrameSource(data: jpeg, options: .default).decodeFrame(at: 0) == JPEGFixtures.reference(jpeg))
        }
    }

    @Test func aProgressiveScanLibjpegWouldRefuseFailsAtOpen() {
        // The first scan is a DC scan (Ss = 0): give it Se = 5, which libjpeg-turbo refuses
        // only once it has allocated the raster and the coefficients.
        var bytes = [UInt8](JPEGBadInputTests.progressive)
        let sos = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }!
        let n = Int(bytes[sos + 4])
        let se = sos + 5 + 2 * n + 1
        #expect(bytes[se - 1] == 0 && bytes[se] == 0)
        bytes[se] = 5
        let al = bytes[se + 1] & 0x0F, ah = bytes[se + 1] >> 4
        #expect(Self.opening(Data(bytes)) == .invalidData(format: .jpeg, reason: "Invalid progressive parameters Ss=0 Se=5 Ah=\(ah) Al=\(al)"))
        // A component whose quantisation table no DQT defines (table 0 renumbered 2).
        var unquantised = [UInt8](JPEGBadInputTests.progressive)
        let dqt = unquantised.indices.first { unquantised[$0] == 0xFF && unquantised[$0 + 1] == 0xDB }!
        #expect(unquantised[dqt + 4] == 0x00)
        unquantised[dqt + 4] = 0x02
        #expect(Self.opening(Data(unquantised)) == .invalidData(format: .jpeg, reason: "Quantization table 0x00 was not defined"))
        // An SOS naming a component the frame lacks.
        var stray = [UInt8](JPEGBadInputTests.progressive)
        stray[sos + 5] = 9
        #expect(Self.opening(Data(stray)) == .invalidData(format: .jpeg, reason: "Invalid component ID 9 in SOS"))
    }
}
