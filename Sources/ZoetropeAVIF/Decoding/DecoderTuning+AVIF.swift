import Zoetrope

extension DecoderTuning.FastPath {
    /// dav1d decodes a frame of a megapixel or more with two threads by default. Below
    /// about a megapixel the second thread costs 1.5–1.9× the CPU and loses.
    package static let avifSecondThread = Self("avif-second-thread", standardThreshold: 1_000_000)
}

extension DecoderTuning {
    /// AVIF frames of at least this many pixels decode with two dav1d threads by default
    /// (`FastPath.avifSecondThread`).
    package var avifSecondThreadMinimumPixels: Int { threshold(.avifSecondThread) }

    /// dav1d's threads for AVIF frames of `pixels` pixels when `DecodingOptions.threadCount`
    /// is nil: never more than the cores the process may use.
    package func avifThreads(forFramePixels pixels: Int, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        min(pixels >= avifSecondThreadMinimumPixels ? 2 : 1, max(1, availableCores))
    }
}
