/// A coder that can start decoding before the whole file has arrived.
///
/// The five built-in coders adopt it. The application opens a session with no bytes,
/// appends bytes as they arrive, and calls `finish()` when the data is complete:
///
/// ```swift
/// let source = coder.makeIncrementalSource(options: .default)
/// for try await chunk in download {
///     let snapshot = try source.append(chunk)
///     if snapshot.frameCount > shown { /* decode and show the new frames */ }
/// }
/// let info = try source.finish()   // the whole-file info, or the whole-file error
/// ```
public protocol IncrementalDecoding: AnimatedImageCoder {
    /// A session over no bytes yet, decoding with `options` (limits are checked as the
    /// frames are indexed).
    func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource
}
