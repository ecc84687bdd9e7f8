extension AnimatedImage {
    /// This image's name in a `SharedFrameCache` when a sharing policy names none: the
    /// SHA-256 of its bytes plus its decoding options, so that two different files never
    /// share frames and the same bytes decoded the same way do, whoever loaded them.
    /// Computed on the calling thread (it reads every byte) unless a player of this image
    /// has already had it computed.
    package var sharedCacheKey: String {
        contentIdentity.knownName ?? ImageContentIdentity.name(of: data, options: options)
    }

    /// Every option that changes the frames, spelled out (reflection's description of the
    /// struct is not stable across runtimes, and has trapped on Linux).
    static func cacheKey(of o: DecodingOptions) -> String {
        let l = o.limits
        let target = o.targetSize.map { "\($0.width)x\($0.height)" } ?? "full"
        return "\(o.pixelFormat) \(target) colour \(o.colorOutput.rawValue) "
            + "limits \(l.maxWidth) \(l.maxHeight) \(l.maxCanvasPixels) \(l.maxFrameCount) \(l.maxAllocationBytes) "
            + "\(l.maxPixelsPerPlay) threads \(o.threadCount.map(String.init) ?? "default") "
            + "partial \(o.showsPartialFirstFrame)"
    }
}
