import CTurboJPEG
import Foundation

/// Progressive JPEGs made by libjpeg-turbo's own compressor, for the tests that stream them.
public enum ProgressiveJPEG {
    /// A `width`×`height` gradient, 4:2:0 at quality 90, in libjpeg-turbo's simple
    /// progression (ten scans).
    public static func gradient(width: Int, height: Int) -> Data {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x * y) % 256), 255,
                ]
            }
        }
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_RGBA.rawValue), &out, &size,
            Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE)
        precondition(status == 0, String(cString: tjGetErrorStr2(handle)))
        defer { tjFree(out) }
        return Data(bytes: out!, count: Int(size))
    }
}
