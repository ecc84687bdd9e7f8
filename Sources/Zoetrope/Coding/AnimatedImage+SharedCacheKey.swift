extension AnimatedImage {
    /// This image's name in a `SharedFrameCache` when a `SharedBufferPolicy` names none: the
    /// SHA-256 of its bytes plus its decoding options, so that two different files never
    /// share frames and the same bytes decoded the same way do, whoever loaded them.
    /// Computed on each call (it reads every byte).
    public var sharedCacheKey: String {
        "sha256:\(SHA256.hex(data)) options:\(String(describing: options))"
    }
}
