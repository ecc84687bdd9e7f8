import Foundation

/// The bytes of a `data:` URL (RFC 2397): `data:[<media type>][;base64],<data>`, the data
/// base64 or percent-encoded. Foundation on Linux does not read these itself.
enum DataURL {
    static func bytes(of text: String) -> Data? {
        guard text.utf8.count > 5, text.prefix(5).lowercased() == "data:", let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = text[text.index(after: comma)...]
        if header.hasSuffix(";base64") {
            let cleaned = (payload.removingPercentEncoding ?? String(payload)).filter { !$0.isWhitespace }
            return Data(base64Encoded: cleaned)
        }
        return payload.removingPercentEncoding.map { Data($0.utf8) }
    }
}
