import Zoetrope

extension AnimationConversion {
    /// What a conversion does with the source's colour description (`AnimationInfo.color`)
    /// and metadata (`AnimationInfo.metadata`).
    ///
    /// The default keeps both: the source is decoded with `ColorOutput.stored` (its values
    /// as stored, unconverted) and its colour description and metadata go into the
    /// `EncodingOptions`, so that the target declares what the source declared: an ICC
    /// profile is written byte for byte. Parts the target format cannot hold are left out
    /// (`unwrittenParts(of:by:)` names them, and `zoetrope convert` warns).
    public struct DescriptionPolicy: Hashable, Sendable {
        /// Keep the source's colour description and its stored values (true, the default),
        /// or convert the frames to sRGB (`ColorOutput.sRGB`) and declare nothing.
        public var keepsColor: Bool
        /// Leave out the source's Exif and XMP (false by default: they are kept).
        public var stripsMetadata: Bool

        /// A policy; the default keeps the colour description and the metadata.
        public init(keepsColor: Bool = true, stripsMetadata: Bool = false) {
            self.keepsColor = keepsColor
            self.stripsMetadata = stripsMetadata
        }

        /// Keeps the colour description and the metadata.
        public static let keepAll = DescriptionPolicy()

        /// What the source's frames are decoded to: `.stored` when the colour is kept
        /// (the values the description describes), `.sRGB` otherwise.
        package var colorOutput: ColorOutput { keepsColor ? .stored : .sRGB }

        /// `options` with the source's colour description and metadata filled in as this
        /// policy says, where `options` leaves them empty (`ColorInfo.unspecified`,
        /// `EmbeddedMetadata.none`); what `options` sets itself is kept. Not keeping the
        /// colour leaves `options.color` as it is; stripping metadata clears
        /// `options.metadata`.
        package func encodingOptions(_ options: EncodingOptions, source: AnimationInfo) -> EncodingOptions {
            var chosen = options
            if keepsColor, !chosen.color.isDeclared { chosen.color = source.color }
            if stripsMetadata {
                chosen.metadata = .none
            } else if chosen.metadata.isEmpty {
                chosen.metadata = source.metadata
            }
            return chosen
        }
    }

    /// The parts of `options.color` and `options.metadata` that `encoder` does not write
    /// (empty when it writes them all). PNG's `sRGB` intent is never counted (a file that
    /// declares nothing is sRGB too), and a profile that `encoder` writes makes the PNG
    /// fallbacks beside it (`gAMA`, `cHRM`) redundant: they are not counted either.
    package static func unwrittenParts(of options: EncodingOptions, by encoder: any AnimatedImageEncoder) -> EmbeddedParts {
        var parts = EmbeddedParts(color: options.color, metadata: options.metadata).subtracting(encoder.writableParts)
        parts.remove(.srgbRenderingIntent)
        if encoder.writableParts.contains(.iccProfile), options.color.iccProfile != nil {
            parts.subtract([.gamma, .chromaticities])
        }
        return parts
    }
}
