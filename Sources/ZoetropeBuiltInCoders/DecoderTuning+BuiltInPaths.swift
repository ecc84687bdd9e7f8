import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF

extension DecoderTuning.FastPath {
    /// Every fast path of the built-in codecs and the core, the one list benchmarks and
    /// tests switch off or force together.
    package static let builtIn: [DecoderTuning.FastPath] = [
        .gifTwoStep, .firstFrameBesideWalk, .gifParallelScan, .avifSecondThread, .bulkWorkers, .parallelColor,
    ]
}

extension DecoderTuning {
    /// Every built-in fast path off: the plain path alone.
    package static let plain = DecoderTuning.standard.without(FastPath.builtIn)
}
