import Foundation
import Zoetrope

/// A made-up format for audit tests, so the audit's table can be checked exactly whatever
/// codec branches are merged: "ZFAKE", width and height (UInt16 LE), frame count, stored
/// loop value (255: none), then one UInt16 LE delay in milliseconds per frame.
struct AuditTestCoder: AnimatedImageCoder {
    static let format = ImageFormat(identifier: "zfake", mediaType: "image/x-zfake", fileExtensions: ["zfk"])

    var formats: [ImageFormat] { [Self.format] }
    var minimumSniffLength: Int { 5 }

    func sniff(_ prefix: Data) -> SniffResult {
        prefix.starts(with: Array("ZFAKE".utf8)) ? .match(Self.format, .unknown) : .noMatch
    }

    /// The bytes of a file in this format.
    static func file(width: Int, height: Int, delaysMs: [Int], storedLoop: Int?) -> Data {
        var d = Data("ZFAKE".utf8)
        for v in [width, height] { d += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        d += [UInt8(delaysMs.count), UInt8(storedLoop ?? 255)]
        for ms in delaysMs { d += [UInt8(ms & 0xFF), UInt8(ms >> 8)] }
        return d
    }

    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        let b = [UInt8](data)
        guard b.count >= 11, b.count >= 11 + 2 * Int(b[9]) else {
            throw AnimatedImageError.truncated(format: Self.format, completeFrames: 0, reason: "header cut short")
        }
        let delays = (0..<Int(b[9])).map { i in FrameDuration.milliseconds(Int64(b[11 + 2 * i]) | Int64(b[12 + 2 * i]) << 8) }
        let loop: Int? = b[10] == 255 ? nil : Int(b[10])
        let info = AnimationInfo(
            format: Self.format,
            canvasSize: PixelSize(width: Int(b[5]) | Int(b[6]) << 8, height: Int(b[7]) | Int(b[8]) << 8),
            frameDurations: delays,
            loopCount: loop.map { $0 == 0 ? .infinite : .plays($0) } ?? .once,
            storedLoopValue: loop)
        return Source(info: info, options: options)
    }

    /// Reports the header; frames are never decoded by the audit.
    final class Source: FrameSource {
        let info: AnimationInfo
        let options: DecodingOptions
        init(info: AnimationInfo, options: DecodingOptions) {
            self.info = info
            self.options = options
        }
        var retainedByteCount: Int { 0 }
        func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
            try checkFrameIndex(index)
            buffer.reshape(width: info.canvasSize.width, height: info.canvasSize.height, clear: true)
        }
    }
}
