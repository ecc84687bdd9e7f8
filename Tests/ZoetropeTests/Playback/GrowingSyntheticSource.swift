@testable import Zoetrope

/// An incremental source made in code: each byte appended makes the next frame of a
/// `SyntheticFrameSource` arrive; `finish()` completes it. A test can also withdraw the
/// frames (a new revision, drawn with another tag) or fail the session.
final class GrowingSyntheticSource: IncrementalFrameSource {
    private struct State {
        var snapshot: IncrementalSnapshot
        var frames: SyntheticFrameSource
        var framesArrived = 0
    }
    private let state: Locked<State>
    private let whole: SyntheticFrameSource
    let options: DecodingOptions = .default

    /// A session whose whole file is `whole`; nothing has arrived yet.
    init(_ whole: SyntheticFrameSource) {
        self.whole = whole
        state = Locked(State(snapshot: IncrementalSnapshot(), frames: whole))
    }

    var snapshot: IncrementalSnapshot { state.withLock { $0.snapshot } }

    @discardableResult
    func append(contentsOf bytes: UnsafeRawBufferPointer) throws -> IncrementalSnapshot {
        try state.withLock { s in
            if case .failed(let error) = s.snapshot.state { throw error }
            guard s.snapshot.state == .receiving else { return s.snapshot }
            s.snapshot.receivedByteCount += bytes.count
            s.framesArrived += bytes.count
            s.snapshot.firstFrameIsPartial = false
            s.snapshot.format = s.frames.info.format
            s.snapshot.canvasSize = s.frames.info.canvasSize
            s.snapshot.loopCount = s.frames.info.loopCount
            let known = min(s.framesArrived, s.frames.info.frameCount)
            s.snapshot.frameDurations = Array(s.frames.info.frameDurations[..<known])
            return s.snapshot
        }
    }

    @discardableResult
    func finish() throws -> AnimationInfo {
        try state.withLock { s in
            if case .failed(let error) = s.snapshot.state { throw error }
            s.snapshot.state = .complete
            return s.snapshot.info!
        }
    }

    /// Replaces the frames with `count` frames of another picture (tag 9), as an APNG
    /// falling back to its still image does.
    func withdraw(keeping count: Int) {
        state.withLock { s in
            s.frames = SyntheticFrameSource(frameCount: count, loopCount: .once, size: s.frames.info.canvasSize, tag: 9)
            s.snapshot.revision += 1
            s.snapshot.loopCount = .once
            s.snapshot.frameDurations = Array(s.frames.info.frameDurations)
        }
    }

    /// `bytes` more of frame 0 arrive, which is counted while partial
    /// (`IncrementalSnapshot.firstFrameIsPartial`).
    func arrivePartOfFrameZero(bytes: Int) {
        state.withLock { s in
            s.snapshot.receivedByteCount += bytes
            s.snapshot.firstFrameIsPartial = true
            s.snapshot.format = s.frames.info.format
            s.snapshot.canvasSize = s.frames.info.canvasSize
            s.snapshot.frameDurations = [s.frames.info.frameDurations[0]]
        }
    }

    /// Ends the session with `error`.
    func fail(_ error: AnimatedImageError) { state.withLock { $0.snapshot.state = .failed(error) } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        let (snapshot, frames) = state.withLock { ($0.snapshot, $0.frames) }
        guard index >= 0, index < snapshot.frameCount else {
            throw IncrementalSnapshot.unavailableError(index, in: snapshot)
        }
        try frames.decodeFrame(at: index, into: &buffer)
    }

    var retainedByteCount: Int { 0 }
}
