extension AnimatedImageError {
    /// `error` as an `AnimatedImageError`: itself, or for another error (a custom coder's or
    /// encoder's own) a `.codecFailure` naming its type, as the player and `frames()` report it.
    package init(_ error: any Error, format: ImageFormat) {
        if let error = error as? AnimatedImageError {
            self = error
        } else {
            self = .codecFailure(
                format: format, library: String(describing: type(of: error)),
                message: String(describing: error))
        }
    }
}
