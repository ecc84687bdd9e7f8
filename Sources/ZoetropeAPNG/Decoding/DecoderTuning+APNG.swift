import Zoetrope

extension DecoderTuning.FastPath {
    /// With a second core, the open draws frame 0 on its own thread while a new one walks
    /// the rest of the file's chunks (`OpenStrategy.firstFrameBesideWalk`), for files of
    /// 4 MiB or more: below it the rest of the walk costs less than starting a thread.
    package static let firstFrameBesideWalk = Self("first-frame-beside-walk", standardThreshold: 4 << 20)
}

extension DecoderTuning {
    /// PNG and APNG files of at least this many bytes draw frame 0 beside the walk of the
    /// rest (`FastPath.firstFrameBesideWalk`).
    package var apngBesideWalkMinimumBytes: Int { threshold(.firstFrameBesideWalk) }

    /// How a PNG or APNG file of `byteCount` bytes opens with `availableCores` cores: frame 0
    /// beside the walk from `apngBesideWalkMinimumBytes` with a second core, whole otherwise.
    package func apngOpenStrategy(byteCount: Int, availableCores: Int = ProcessorBudget.availableCores) -> OpenStrategy {
        availableCores > 1 && byteCount >= apngBesideWalkMinimumBytes ? .firstFrameBesideWalk : .wholeIndex
    }
}
