import CZoetropeAVIF
import Zoetrope

/// libavif, opened the first time an AVIF is decoded or encoded rather than when the
/// process starts (`CZoetropeAVIF` says why). Every path into libavif checks `load()`
/// first, so a machine without libavif gets a typed error instead of a failure to start.
enum LibAVIF {
    /// Why libavif could not be opened; nil once it is. The first read opens it.
    static let loadFailure: String? = {
        var message = [CChar](repeating: 0, count: 1024)
        guard zoetrope_avif_load(&message, message.count) == 0 else { return nil }
        return string(message)
    }()

    /// The text of a NUL-terminated buffer libavif or the loader filled in.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens libavif if it is not open yet.
    /// - Throws: `AnimatedImageError.codecFailure` naming libavif and what the loader tried.
    static func load() throws(AnimatedImageError) {
        if let reason = loadFailure { throw .codecFailure(format: .avif, library: "libavif", message: reason) }
    }

    /// Whether libavif is open (opening it if needed).
    static var isLoaded: Bool { loadFailure == nil }
}
