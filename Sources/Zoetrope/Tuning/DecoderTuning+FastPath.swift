extension DecoderTuning {
    /// A path beside the plain one that the tuning can switch off: a name (what benchmarks
    /// and reports say) and the threshold it applies from unless a tuning says otherwise.
    ///
    /// The module that takes a path declares it as a static member, so the core holds only
    /// its own (`bulkWorkers`, `parallelColor`) and names no codec's.
    package struct FastPath: Hashable, Sendable, CustomStringConvertible {
        /// The path's name, unique in the package ("bulk-workers").
        package let name: String
        /// The threshold every source uses unless its tuning says otherwise.
        package let standardThreshold: Int

        /// A path called `name` that applies from `standardThreshold` up.
        package init(_ name: String, standardThreshold: Int) {
            self.name = name
            self.standardThreshold = standardThreshold
        }

        package var description: String { name }

        /// Bulk runs (`BulkFrameDecoder`): frames' compressed data decodes on worker threads
        /// for canvases of at least this many pixels. Smaller frames decode in a few
        /// microseconds, where handing them between threads costs more than it saves.
        package static let bulkWorkers = FastPath("bulk-workers", standardThreshold: 16_384)

        /// Colour conversion (`ColorTransform`) of frames of at least this many pixels runs in
        /// bands on every core. A converter does about 30–50 MP/s on one core, so
        /// below it a band costs less than waking a thread.
        package static let parallelColor = FastPath("parallel-color", standardThreshold: 65_536)
    }
}
