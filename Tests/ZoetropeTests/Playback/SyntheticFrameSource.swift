@testable import Zoetrope

/// A frame source made in code: every pixel of frame i holds (i, i>>8, 7, 255), so a test
/// can tell from a shown buffer which frame was decoded into it (and, with another `tag`
/// than 7, which source). Optional failures.
final class SyntheticFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let failing: Set<Int>
    /// The third byte of every pixel: tells sources apart.
    let tag: UInt8
    private let decodes = Locked<[Int]>([])
    private let allocations = Locked(0)

    init(
        frameCount: Int, duration: FrameDuration = .milliseconds(50), durations: [FrameDuration]? = nil,
        loopCount: LoopCount = .infinite, size: PixelSize = PixelSize(width: 4, height: 2), failing: Set<Int> = [],
        tag: UInt8 = 7, pixelFormat: PixelFormat = .rgba8
    ) {
        let ds = durations ?? Array(repeating: duration, count: frameCount)
        info = AnimationInfo(
            format: ImageFormat(identifier: "synthetic", mediaType: "application/x-synthetic", fileExtensions: []),
            canvasSize: size, frameDurations: ds, loopCount: loopCount, storedLoopValue: nil, hasAlpha: false)
        options = DecodingOptions(pixelFormat: pixelFormat)
        self.failing = failing
        self.tag = tag
    }

    var retainedByteCount: Int { 0 }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        if failing.contains(index) {
            throw AnimatedImageError.invalidData(format: info.format, reason: "frame \(index) is broken")
        }
        decodes.withLock { $0.append(index) }
        let size = outputSize
        let before = buffer.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        buffer.format = options.pixelFormat
        buffer.reshape(width: size.width, height: size.height)
        let px: [UInt8] = [UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF), tag, 255]
        buffer.bytes.withUnsafeMutableBufferPointer { p in
            for o in stride(from: 0, to: p.count, by: 4) {
                p[o] = px[0]; p[o + 1] = px[1]; p[o + 2] = px[2]; p[o + 3] = px[3]
            }
        }
        // A different address after writing means the decode had to allocate: the buffer
        // was empty, too small, or shared with someone (copy on write).
        let after = buffer.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        if before != after { allocations.withLock { $0 += 1 } }
    }

    /// Decodes that allocated pixel storage.
    var allocatingDecodes: Int { allocations.withLock { $0 } }

    /// Frame indexes decoded so far, in order.
    var decodedFrames: [Int] { decodes.withLock { $0 } }

    /// Which frame a buffer from this source holds.
    static func frameIndex(in buffer: PixelBuffer) -> Int { Int(buffer.bytes[0]) | Int(buffer.bytes[1]) << 8 }
}
