extension DecodingOptions {
    /// These options with `paths` switched off (`DecoderTuning.without(_:)`).
    package func without(_ paths: DecoderTuning.FastPath...) -> DecodingOptions {
        var options = self
        options.tuning = tuning.without(paths)
        return options
    }
}
