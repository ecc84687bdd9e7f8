#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoding session over a file that is still arriving: made by
/// `IncrementalDecoding.makeIncrementalSource(options:)`.
///
/// Bytes are appended as they arrive; the source indexes them at once, continuing where it
/// stopped (appending N bytes costs time proportional to N, and the file's bytes are held
/// once). `snapshot` says what is known so far. A frame whose bytes have all arrived decodes
/// exactly as the whole-file source decodes it; asking for one that has not arrived throws
/// `AnimatedImageError.frameNotYetAvailable`. Broken input fails as soon as the broken part
/// arrives, with the typed error the whole-file source gives; a break that the whole-file
/// source survives (a truncation after some frames) keeps the frames before it.
///
/// The methods may be called from different threads (the download appends while a player
/// decodes): appending never waits for a frame being decoded.
public protocol IncrementalFrameSource: AnyObject, Sendable {
    /// The options this source decodes with.
    var options: DecodingOptions { get }
    /// What the bytes received so far say.
    var snapshot: IncrementalSnapshot { get }
    /// Adds the next bytes of the file and indexes them. Returns the new snapshot; throws
    /// (now and on every later call) when the file cannot be decoded: an unusable header or
    /// a passed limit, with the error the whole-file source throws (the frame count and
    /// pixels-per-play limits are checked by the same parser; the allocation limit is checked
    /// as frames arrive, so when it is passed before the end the error names the total so
    /// far). The bytes the session holds count against the allocation limit too: an append
    /// that would take them past it throws before they are copied, so an endless stream
    /// fails instead of exhausting memory. Bytes appended once the state is `.complete` are ignored.
    @discardableResult
    func append(contentsOf bytes: UnsafeRawBufferPointer) throws -> IncrementalSnapshot
    /// Says the data is complete. Returns the info the whole-file source gives for the
    /// bytes received, or throws the error it throws (a file cut inside its first frame
    /// reports the truncation). Calling it again returns the same.
    @discardableResult
    func finish() throws -> AnimationInfo
    /// Decodes frame `index` (below `snapshot.frameCount`) as a fully composited canvas into
    /// `buffer`, exactly as the whole-file source would. Throws `.frameNotYetAvailable`
    /// for a frame whose bytes have not all arrived while more may come; once complete it
    /// throws what the whole-file source throws (`.frameOutOfRange`, the truncation).
    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws
    /// Bytes this session holds: the file's bytes so far, the index and the decoder state.
    var retainedByteCount: Int { get }
    /// Says how long the whole file will be, when the application knows (an HTTP
    /// `Content-Length`, a file's size), so that the session makes room for it at once.
    /// The built-in sessions grow in place without it where the system has `mmap` (they
    /// reserve address space and commit pages as bytes arrive), so there the hint saves
    /// only the commits; elsewhere it saves growing by doubling and copying. A hint: the file may
    /// still turn out shorter or longer. It is capped at `options.limits.maxAllocationBytes`,
    /// so a hint from the network cannot make the session allocate more than the limits
    /// allow, and ignored once the session is complete or failed. The default does nothing.
    func reserveCapacity(_ totalByteCount: Int)
}

extension IncrementalFrameSource {
    /// Does nothing: a session that does not hold the file's bytes in one growing buffer
    /// has nothing to reserve.
    public func reserveCapacity(_ totalByteCount: Int) {}

    /// Adds the next bytes of the file (see `append(contentsOf:)`): `Data`, `[UInt8]` or any
    /// collection of bytes (copied first only when its storage is not contiguous).
    @discardableResult
    public func append(_ bytes: some Collection<UInt8>) throws -> IncrementalSnapshot {
        if let snapshot = try bytes.withContiguousStorageIfAvailable({ try append(contentsOf: UnsafeRawBufferPointer($0)) }) {
            return snapshot
        }
        return try Array(bytes).withUnsafeBytes { try append(contentsOf: $0) }
    }

    /// Decodes frame `index` into a new buffer.
    public func decodeFrame(at index: Int) throws -> PixelBuffer {
        var buffer = PixelBuffer()
        try decodeFrame(at: index, into: &buffer)
        return buffer
    }

    /// A `FrameSource` over the frames complete now: its `info` is `snapshot.info` at the
    /// time of the call (nil before the format and canvas are known), and it decodes through
    /// this session, sharing its canvas, so a consumer can take a new view as frames arrive
    /// without decoding again. Once the state is `.complete`, the view is what the
    /// whole-file source is (same info, same frames), so `BulkFrameDecoder`, the player
    /// and `AnimatedImage` consumers work on it unchanged.
    public func frameSource() -> (any FrameSource)? {
        guard let info = snapshot.info else { return nil }
        return IncrementalFrameSourceView(session: self, info: info)
    }
}
