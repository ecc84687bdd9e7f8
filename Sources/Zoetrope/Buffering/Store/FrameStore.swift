/// The decoded frames one player holds, as a value: the poster, the frames of the window,
/// the decode in flight, the frames it waits for from other players, and the `FrameSupply`
/// they all come from and go back to (its own `FramePool`, or a `SharedFrameCache`).
///
/// The engine decides which frames to keep; the store keeps the books, so that it never
/// has to ask where a frame came from.
struct FrameStore: Sendable {
    /// Frame 0, kept besides the window: shown while stopped and whenever the play restarts.
    private(set) var poster: PixelBuffer?
    /// The poster was acquired from the current supply and goes back to it when dropped.
    private var posterFromSupply = false
    private var frames = HeldFrames()
    /// Takes `buffer` as the poster, decoded by someone else (an `AnimatedImage`): it is
    /// never given to the supply, so its storage is never decoded into.
    mutating func adoptPoster(_ buffer: PixelBuffer) {
        releasePoster()
        poster = buffer
    }

    /// Frames another player is decoding; the supply's waiter runs when they land.
    private var waiting: Set<Int> = []
    /// The decode running now (one at a time per player) and its buffer's bytes.
    private(set) var inFlight: (index: Int, bytes: Int)?
    private(set) var supply: any FrameSupply
    /// Bytes of one frame at the output size.
    let frameByteCount: Int
    /// Runs when a frame another player decodes is published (wakes this player).
    var waiter: @Sendable () -> Void = {}

    init(supply: any FrameSupply, frameByteCount: Int) {
        self.supply = supply
        self.frameByteCount = frameByteCount
    }

    // MARK: - Reading

    func isReady(_ index: Int) -> Bool { index == 0 ? poster != nil : frames[index] != nil }
    func buffer(_ index: Int) -> PixelBuffer? { index == 0 ? poster : frames[index] }
    func isWaiting(for index: Int) -> Bool { waiting.contains(index) }

    /// Decoded frames of the window plus the decode in flight (the poster and idle buffers aside).
    var framesInWindow: Int { frames.count + (inFlight == nil ? 0 : 1) }

    /// Pixel buffers held: poster, frames, the one being decoded, idle ones.
    var framesHeld: Int { (poster == nil ? 0 : 1) + framesInWindow + supply.idleCount }

    /// Bytes of those buffers (a decode in flight counts at least one frame).
    var bytesHeld: Int {
        var b = (poster?.byteCount ?? 0) + supply.idleBytes + frames.byteCount
        if let f = inFlight { b += max(f.bytes, frameByteCount) }
        return b
    }

    var buffersCreated: Int { supply.buffersCreated }

    // MARK: - Acquiring

    /// What asking the supply for frame `index` gave.
    enum Acquisition {
        /// The frame is held now (taken ready-made from other players).
        case ready
        /// Someone else decodes it; the waiter runs when it lands.
        case waiting
        /// Decode it: into this buffer, then through this outlet. The store counts it in flight.
        case decode(BufferHandoff, DecodeOutlet)
    }

    /// Asks the supply for frame `index` (0 is the poster), which must not be held,
    /// waited for or in flight.
    mutating func acquire(_ index: Int) -> Acquisition {
        switch supply.acquire(index, waiter: waiter) {
        case .ready(let b):
            if index == 0 {
                poster = b
                posterFromSupply = true
            } else {
                frames[index] = b
            }
            return .ready
        case .inProgress:
            waiting.insert(index)
            return .waiting
        case .decodeHere(let b):
            if index == 0 { posterFromSupply = true }
            let handoff = BufferHandoff(b)
            inFlight = (index, handoff.byteCount)
            return .decode(handoff, supply.outlet(for: index))
        }
    }

    /// Frames other players were decoding have landed: ask again.
    mutating func stopWaiting() { waiting = [] }

    // MARK: - Decode results

    /// The decode in flight finished with `buffer`; `keep` says whether the window still
    /// wants the frame (the poster is always kept).
    mutating func decodeSucceeded(index: Int, isPoster: Bool, buffer: PixelBuffer, keep: Bool) {
        inFlight = nil
        if isPoster {
            poster = buffer
        } else if keep {
            frames[index] = buffer
        } else {
            supply.release(index, buffer: buffer)
        }
    }

    /// The decode in flight failed (its outlet already abandoned it): nothing to give back.
    mutating func decodeFailed(isPoster: Bool) {
        inFlight = nil
        if isPoster { posterFromSupply = false }
    }

    /// A decode that was in flight will be ignored when it ends (its outlet discards it).
    mutating func forgetInFlight() { inFlight = nil }

    // MARK: - Releasing

    /// Gives back every frame outside `keep` (the poster is not in the window's books).
    mutating func release(keeping keep: Set<Int>) {
        for i in Array(frames.keys) where !keep.contains(i) {
            let b = frames.removeValue(forKey: i)!
            supply.release(i, buffer: b)
        }
    }

    /// Gives back every frame and stops waiting.
    mutating func releaseAll() {
        release(keeping: [])
        waiting = []
    }

    /// Settles the poster with the supply; its pixels stay (copy on write protects them
    /// once the supply reuses the storage). A poster still being decoded is settled when
    /// its (then stale) result arrives.
    mutating func releasePoster() {
        if posterFromSupply, let p = poster { supply.release(0, buffer: p) }
        posterFromSupply = false
    }

    /// Switches to `newSupply` when it hands out other frames than the current one: every
    /// frame goes back to the old supply first. Returns whether a decode in flight must be
    /// forgotten (its result belongs to the old supply).
    mutating func replaceSupply(with newSupply: any FrameSupply) -> Bool {
        guard !newSupply.isSame(as: supply) else { return false }
        releaseAll()
        releasePoster()
        supply = newSupply
        let hadDecode = inFlight != nil
        inFlight = nil
        return hadDecode
    }

    /// Frees everything: frames, poster, idle buffers, the decode in flight.
    mutating func reset() {
        releaseAll()
        releasePoster()
        poster = nil
        supply.reset()
        inFlight = nil
    }

    /// Keeps idle buffers only while `window` frames leave room for them.
    mutating func trimIdle(window: Int) { supply.trimIdle(to: max(0, window - framesInWindow)) }
    /// Drops every idle buffer of the player's own.
    mutating func trimIdle() { supply.trimIdle(to: 0) }
    /// Drops every idle buffer the supply can reach (critical memory pressure).
    mutating func dropIdleBuffers() { supply.dropIdleBuffers() }
}
