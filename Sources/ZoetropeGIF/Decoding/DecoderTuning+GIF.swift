import Zoetrope

extension DecoderTuning.FastPath {
    /// The open walks the blocks and scans frame 0's LZW data only; the other images' scans
    /// wait for the first use of `info` (`OpenStrategy.lazyInfo`). From 256 KiB: below it
    /// the whole scan costs less than a millisecond.
    package static let gifTwoStep = Self("gif-two-step", standardThreshold: 256 << 10)
    /// The images' LZW scans run on every core, for files of a megabyte or more.
    package static let gifParallelScan = Self("gif-parallel-scan", standardThreshold: 1 << 20)
}

extension DecoderTuning {
    /// GIF files of at least this many bytes open in two steps (`FastPath.gifTwoStep`).
    package var gifTwoStepMinimumBytes: Int { threshold(.gifTwoStep) }
    /// GIF files of at least this many bytes scan their images on every core
    /// (`FastPath.gifParallelScan`).
    package var gifParallelScanMinimumBytes: Int { threshold(.gifParallelScan) }

    /// How a GIF file of `byteCount` bytes opens: in two steps from `gifTwoStepMinimumBytes`,
    /// whole below it.
    package func gifOpenStrategy(byteCount: Int) -> OpenStrategy {
        byteCount >= gifTwoStepMinimumBytes ? .lazyInfo : .wholeIndex
    }

    /// Threads for scanning a GIF file of `byteCount` bytes.
    package func gifScanThreads(byteCount: Int, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        byteCount >= gifParallelScanMinimumBytes ? max(1, availableCores) : 1
    }
}
