/// An incremental session that learns of problems only while decoding, and says what they
/// were as `DecodeWarningReporting` does for a `FrameSource` (corrupt data a codec library
/// concealed). Shared inside the package, for the tool.
package protocol IncrementalDecodeWarningReporting: IncrementalFrameSource {
    /// What the decoding so far worked around, one line each, without repeating the
    /// snapshot's `warnings`; empty when nothing was.
    var decodeWarnings: [String] { get }
}
