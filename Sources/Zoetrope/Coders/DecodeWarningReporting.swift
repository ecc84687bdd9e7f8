/// A source that learns of problems only while decoding (corrupt compressed data that its
/// codec library conceals with a warning) and says what they were, beside the
/// `AnimationInfo.warnings` known at open. Shared inside the package, for the tool.
package protocol DecodeWarningReporting: FrameSource {
    /// What the decodes so far worked around, one line each, without repeating
    /// `info.warnings`; empty when nothing was.
    var decodeWarnings: [String] { get }
}
