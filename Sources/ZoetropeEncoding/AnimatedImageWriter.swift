import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One encoding session: frames go in one at a time, the file comes out at `finish()`.
///
/// Every frame is a full canvas of the size the writer was opened for, in RGBA8 (straight
/// alpha, or premultiplied under the rule of `AnimatedImageEncoder`). A writer is used by
/// one owner at a time; after `finish()` (or an error from `add`) it takes no more frames.
public protocol AnimatedImageWriter: AnyObject {
    /// Frames added so far.
    var frameCount: Int { get }
    /// Encodes one frame. Throws `.invalidArgument` for a frame of the wrong size or a
    /// duration the format cannot store, `.codecFailure` when the C library fails.
    func add(_ frame: EncodingFrame) throws
    /// Ends the file and returns its bytes. Throws `.invalidArgument` when no frame was added.
    func finish() throws -> Data
    /// Ends the file and writes it to `url` atomically (a temporary file renamed into place),
    /// so a failure never leaves a partial file behind. A writer that keeps its output in a
    /// temporary file as it goes (`WebPEncoder`'s) moves that file into place instead of
    /// reading it back into memory.
    func finish(to url: URL) throws
}

extension AnimatedImageWriter {
    /// The default `finish(to:)`: `finish()`, then the bytes written atomically.
    public func finish(to url: URL) throws {
        let data = try finish()
        try data.write(to: url, options: .atomic)
    }
}
