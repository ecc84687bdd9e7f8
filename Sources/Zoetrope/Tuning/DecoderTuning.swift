/// The thresholds that pick decoding paths: the generic mechanism, which names no format.
///
/// Each fast path beside the plain one (open a file by walking it whole, decode one frame
/// after another on the caller's thread) is a `FastPath` with a standard threshold, declared
/// by the module that takes the path (a codec declares its own, the core the bulk and colour
/// paths), with the measurement that justifies it in Docs/Benchmarks.md ("Fast paths against
/// the plain path"). Sources read thresholds from `DecodingOptions.tuning`, so a test or a
/// benchmark switches one path off for one source (`without(_:)`) without touching any other.
package struct DecoderTuning: Hashable, Sendable {
    /// Thresholds that differ from their paths' standard ones, by path name.
    private var thresholds: [String: Int] = [:]

    /// The measured thresholds every source uses unless told otherwise.
    package static let standard = DecoderTuning()

    /// The threshold of `path` (a size in the unit the path measures): the path applies at
    /// or above it. `Int.max` when switched off, 0 when forced.
    package func threshold(_ path: FastPath) -> Int { thresholds[path.name] ?? path.standardThreshold }

    /// This tuning with `paths` switched off.
    package func without(_ paths: [FastPath]) -> DecoderTuning { settingThresholds(of: paths, to: .max) }

    /// This tuning with `path` switched off.
    package func without(_ path: FastPath) -> DecoderTuning { without([path]) }

    /// This tuning with the size thresholds of `paths` at zero, so they apply to every file
    /// (the benchmarks measure what a threshold keeps out). A path still needs what is not
    /// a size: a second core, or two threads.
    package func forcing(_ paths: [FastPath]) -> DecoderTuning { settingThresholds(of: paths, to: 0) }

    /// This tuning with the threshold of each of `paths` set to `value`; one back at its
    /// standard value is forgotten, so equal tunings compare equal however they were made.
    private func settingThresholds(of paths: [FastPath], to value: Int) -> DecoderTuning {
        var tuning = self
        for path in paths {
            tuning.thresholds[path.name] = value == path.standardThreshold ? nil : value
        }
        return tuning
    }

    /// What bulk runs start workers for (`FastPath.bulkWorkers`).
    package var bulk: BulkTuning { BulkTuning(minimumCanvasPixels: threshold(.bulkWorkers), minimumParallelism: 1.2) }

    /// Bands (threads) for colour-converting a frame of `pixels` pixels and `rows` rows
    /// with `threads` threads allowed (`DecodingOptions.threadCount`, nil: every core).
    package func colorBands(forPixels pixels: Int, rows: Int, threads: Int?, availableCores: Int = ProcessorBudget.availableCores) -> Int {
        guard pixels >= threshold(.parallelColor) else { return 1 }
        return max(1, min(threads ?? availableCores, rows))
    }
}
