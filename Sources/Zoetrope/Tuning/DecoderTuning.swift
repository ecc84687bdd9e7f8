/// Every threshold that picks a decoding path, in one place.
///
/// Each fast path beside the plain one (open a file by walking it whole, decode one frame
/// after another on the caller's thread) has its threshold here, with the measurement that
/// justifies it in Docs/Benchmarks.md ("Fast paths against the plain path"). Sources read
/// them from `DecodingOptions.tuning`, so a test or a benchmark switches one path off for
/// one source (`without(_:)`) without touching any other.
package struct DecoderTuning: Hashable, Sendable {
    /// A path beside the plain one that the tuning can switch off.
    package enum FastPath: String, CaseIterable, Sendable {
        /// GIF: the open walks the blocks and scans frame 0's LZW data only; the other
        /// images' scans wait for the first use of `info` (`OpenStrategy.lazyInfo`).
        case gifTwoStep = "gif-two-step"
        /// APNG: with a second core, the open draws frame 0 on its own thread while a new one
        /// walks the rest of the file's chunks (`OpenStrategy.firstFrameBesideWalk`).
        case firstFrameBesideWalk = "first-frame-beside-walk"
        /// GIF: the images' LZW scans run on every core.
        case gifParallelScan = "gif-parallel-scan"
        /// AVIF: dav1d decodes a big frame with two threads.
        case avifSecondThread = "avif-second-thread"
        /// Bulk runs (`BulkFrameDecoder`): frames' compressed data decodes on worker threads.
        case bulkWorkers = "bulk-workers"
        /// Colour conversion (`ColorTransform`) of a big frame runs in bands on every core.
        case parallelColor = "parallel-color"
    }

    /// GIF files of at least this many bytes open in two steps (`FastPath.gifTwoStep`).
    /// Below it the whole scan costs less than a millisecond.
    package var gifTwoStepMinimumBytes: Int
    /// GIF files of at least this many bytes scan their images on every core
    /// (`FastPath.gifParallelScan`).
    package var gifParallelScanMinimumBytes: Int
    /// APNG files of at least this many bytes draw frame 0 beside the walk of the rest
    /// (`FastPath.firstFrameBesideWalk`). Below it the rest of the walk costs less than
    /// starting a thread.
    package var apngBesideWalkMinimumBytes: Int
    /// AVIF frames of at least this many pixels decode with two dav1d threads by default
    /// (`FastPath.avifSecondThread`). Below about a megapixel the second thread costs
    /// 1.5–1.9× the CPU and loses.
    package var avifSecondThreadMinimumPixels: Int
    /// What bulk runs start workers for (`FastPath.bulkWorkers`).
    package var bulk: BulkTuning
    /// Frames of at least this many pixels are colour-converted in bands on every core
    /// (`FastPath.parallelColor`). lcms2 converts about 30–50 MP/s on one core, so below
    /// it a band costs less than waking a thread.
    package var colorBandsMinimumPixels: Int

    /// The measured thresholds every source uses unless told otherwise.
    package static let standard = DecoderTuning(
        gifTwoStepMinimumBytes: 256 << 10, gifParallelScanMinimumBytes: 1 << 20,
        apngBesideWalkMinimumBytes: 4 << 20,
        avifSecondThreadMinimumPixels: 1_000_000,
        bulk: BulkTuning(minimumCanvasPixels: 16_384, minimumParallelism: 1.2),
        colorBandsMinimumPixels: 65_536)

    /// Every fast path off: the plain path alone.
    package static let plain = DecoderTuning.standard.without(FastPath.allCases)

    /// This tuning with `paths` switched off.
    package func without(_ paths: [FastPath]) -> DecoderTuning { settingThresholds(of: paths, to: .max) }

    /// This tuning with `path` switched off.
    package func without(_ path: FastPath) -> DecoderTuning { without([path]) }

    /// This tuning with the size thresholds of `paths` at zero, so they apply to every file
    /// (the benchmarks measure what a threshold keeps out). A path still needs what is not
    /// a size: a second core, or two threads.
    package func forcing(_ paths: [FastPath]) -> DecoderTuning { settingThresholds(of: paths, to: 0) }

    /// This tuning with the size threshold of each of `paths` set to `value`.
    private func settingThresholds(of paths: [FastPath], to value: Int) -> DecoderTuning {
        var tuning = self
        for path in paths {
            switch path {
            case .gifTwoStep: tuning.gifTwoStepMinimumBytes = value
            case .firstFrameBesideWalk: tuning.apngBesideWalkMinimumBytes = value
            case .gifParallelScan: tuning.gifParallelScanMinimumBytes = value
            case .avifSecondThread: tuning.avifSecondThreadMinimumPixels = value
            case .bulkWorkers: tuning.bulk.minimumCanvasPixels = value
            case .parallelColor: tuning.colorBandsMinimumPixels = value
            }
        }
        return tuning
    }

    /// How a source of `format` opens a whole file of `byteCount` bytes with
    /// `availableCores` cores: the one decision every built-in codec's open goes through.
    package func openStrategy(
        for format: ImageFormat, byteCount: Int,
        availableCores: Int = ProcessorBudget.availableCores
    ) -> OpenStrategy {
        switch format {
        case .gif:
            return byteCount >= gifTwoStepMinimumBytes ? .lazyInfo : .wholeIndex
        case .png, .apng:
            let beside = availableCores > 1 && byteCount >= apngBesideWalkMinimumBytes
            return beside ? .firstFrameBesideWalk : .wholeIndex
        default:
            return .wholeIndex
        }
    }

    /// Threads for scanning a GIF file of `byteCount` bytes.
    package func gifScanThreads(byteCount: Int, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        byteCount >= gifParallelScanMinimumBytes ? max(1, availableCores) : 1
    }

    /// Bands (threads) for colour-converting a frame of `pixels` pixels and `rows` rows
    /// with `threads` threads allowed (`DecodingOptions.threadCount`, nil: every core).
    package func colorBands(forPixels pixels: Int, rows: Int, threads: Int?, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        guard pixels >= colorBandsMinimumPixels else { return 1 }
        return max(1, min(threads ?? availableCores, rows))
    }

    /// dav1d's threads for AVIF frames of `pixels` pixels when `DecodingOptions.threadCount`
    /// is nil: never more than the cores the process may use.
    package func avifThreads(forFramePixels pixels: Int, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        min(pixels >= avifSecondThreadMinimumPixels ? 2 : 1, max(1, availableCores))
    }
}
