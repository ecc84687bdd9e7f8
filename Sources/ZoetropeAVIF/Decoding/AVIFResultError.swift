import CAVIF
import Zoetrope

/// Turns a libavif failure into a typed error carrying libavif's own words.
enum AVIFResultError {
    /// `codecFailure` with `avifResultToString` and, when set, the decoder's diagnostic
    /// (`decoder->diag.error`), prefixed by what Zoetrope was doing.
    static func make(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>?, during step: String) -> AnimatedImageError {
        var message = "\(step): " + String(cString: avifResultToString(result))
        if let decoder {
            let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !detail.isEmpty { message += " (\(detail))" }
        }
        return .codecFailure(format: .avif, library: "libavif", message: message)
    }
}
