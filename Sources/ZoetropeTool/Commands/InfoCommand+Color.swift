import Zoetrope
import ZoetropeColor

/// The colour part of `zoetrope info`: what the file declares, and whether its frames are
/// converted to sRGB (the default) or are sRGB already.
extension InfoCommand {
    /// What becomes of the declared colour: "sRGB" (no conversion needed), "converted to
    /// sRGB", or why the stored values are kept.
    static func colorOutcome(_ color: ColorInfo, format: ImageFormat) -> (isSRGB: Bool, outcome: String) {
        do {
            let transform = try ColorManagement.transform(for: color, precedence: .rule(for: format))
            return transform == nil ? (true, "sRGB, no conversion") : (false, "converted to sRGB")
        } catch {
            return (false, error.reason)
        }
    }

    /// The `"color"` object (only for a file that declares colour).
    static func colorJSON(_ color: ColorInfo, format: ImageFormat) -> JSONValue {
        let (isSRGB, outcome) = colorOutcome(color, format: format)
        var pairs: [(String, JSONValue)] = [("sRGB", .bool(isSRGB)), ("outcome", .string(outcome))]
        if let icc = color.iccProfile {
            pairs.append(
                (
                    "icc",
                    .object([
                        ("description", icc.profileDescription.map { .string($0) } ?? .null),
                        ("bytes", .int(icc.data.count)),
                    ])
                ))
        }
        if let intent = color.srgbRenderingIntent { pairs.append(("srgbIntent", .int(Int(intent)))) }
        if let g = color.gamma { pairs.append(("gamma", .int(Int(g)))) }
        if let c = color.chromaticities {
            pairs.append(
                (
                    "chromaticities",
                    .object([
                        ("white", .array([.int(Int(c.whiteX)), .int(Int(c.whiteY))])),
                        ("red", .array([.int(Int(c.redX)), .int(Int(c.redY))])),
                        ("green", .array([.int(Int(c.greenX)), .int(Int(c.greenY))])),
                        ("blue", .array([.int(Int(c.blueX)), .int(Int(c.blueY))])),
                    ])
                ))
        }
        if let p = color.codePoints {
            pairs.append(
                (
                    "codePoints",
                    .object([
                        ("primaries", .int(Int(p.primaries))), ("transfer", .int(Int(p.transfer))),
                        ("matrix", .int(Int(p.matrix))), ("fullRange", .bool(p.fullRange)),
                    ])
                ))
        }
        return .object(pairs)
    }

    /// One line per declaration, then what decoding does with it.
    static func colorLines(_ color: ColorInfo, format: ImageFormat) -> [String] {
        var parts: [String] = []
        if let icc = color.iccProfile {
            parts.append("ICC \(icc.profileDescription.map { "\"\($0)\"" } ?? "(no description)") (\(Formatting.bytes(icc.data.count)))")
        }
        if let intent = color.srgbRenderingIntent { parts.append("sRGB (intent \(intent))") }
        if let p = color.codePoints {
            parts.append("code points \(p.primaries)/\(p.transfer)/\(p.matrix)/\(p.fullRange ? "full" : "narrow")")
        }
        if let c = color.chromaticities {
            parts.append("cHRM white \(c.whiteX),\(c.whiteY) red \(c.redX),\(c.redY) green \(c.greenX),\(c.greenY) blue \(c.blueX),\(c.blueY)")
        }
        if let g = color.gamma { parts.append("gAMA \(g)") }
        var lines = parts.enumerated().map { "  \($0.offset == 0 ? "colour   " : "         ")  \($0.element)" }
        lines.append("             \(colorOutcome(color, format: format).outcome)")
        return lines
    }
}
