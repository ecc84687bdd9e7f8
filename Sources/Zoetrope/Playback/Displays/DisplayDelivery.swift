import Dispatch

/// Hands a player's frames to its display in order: on the main actor for an
/// `AnimationDisplay` (directly on the main thread, else through one queued hop), on the
/// producing thread for a `ConcurrentAnimationDisplay`.
///
/// Every frame carries the *epoch* it was produced in (the player bumps it under its lock
/// in `stop`, `load`, `prepareForReuse` and `setDisplay`); a newer epoch drops the frames
/// of older ones still queued, so a stopped player never shows a stale frame afterwards.
/// One drainer at a time hands frames over (re-entrant calls from inside `show` only
/// queue), so order holds across threads and hops.
///
/// At most `maxQueued` frames wait: a main actor that falls further behind skips the oldest
/// (each holds a buffer the player would otherwise reuse), keeping the order of the rest.
///
/// The display is held weakly: a view is often its player's owner and its display at once,
/// and the player must not keep it alive. Once it is freed nothing more is shown, and
/// `displayIsGone` tells the player to stop.
final class DisplayDelivery: Sendable {
    /// Frames that may wait for a busy main actor.
    static let maxQueued = 8

    private struct Pending {
        var frame: PixelBuffer
        var index: Int
    }
    private struct State {
        weak var display: (any AnimationDisplay)?
        /// A display was given (and not replaced by nil): `display` reading nil means it was freed.
        var hasDisplay: Bool
        var epoch = 0
        var queue: [Pending] = []
        var head = 0
        var draining = false
        var hopScheduled = false
        /// A main-actor display's visibility, as last read on the main actor.
        var visible = true
        /// Main-actor hand-overs (hops) run so far, for tests.
        var hops = 0
        /// Frames skipped because more than `maxQueued` waited.
        var skipped = 0
    }
    private let state: Locked<State>

    init(display: (any AnimationDisplay)?) {
        state = Locked(State(display: display, hasDisplay: display != nil))
    }

    var display: (any AnimationDisplay)? { state.withLock { $0.display } }
    /// Whether the display given was freed since.
    var displayIsGone: Bool { state.withLock { $0.hasDisplay && $0.display == nil } }
    var hopCount: Int { state.withLock { $0.hops } }
    /// Frames skipped so far because more than `maxQueued` waited for a busy main actor.
    var skippedCount: Int { state.withLock { $0.skipped } }

    /// Replaces the display from `epoch` on; frames queued for the old one are dropped.
    func setDisplay(_ display: (any AnimationDisplay)?, epoch: Int) {
        state.withLock { s in
            s.display = display
            s.hasDisplay = display != nil
            s.visible = true
            if epoch > s.epoch { s.epoch = epoch }
            s.queue.removeAll()
            s.head = 0
        }
    }

    /// Queues `show` (produced in `epoch`) and hands over what is queued, if this thread may.
    func deliver(_ show: (frame: PixelBuffer, index: Int)?, epoch: Int) {
        enum Next { case nothing, drainHere(any ConcurrentAnimationDisplay), drainOnMain, hop }
        let next = state.withLock { s -> Next in
            if epoch > s.epoch {
                s.epoch = epoch
                s.queue.removeAll()
                s.head = 0
            }
            guard let display = s.display else {
                s.queue.removeAll()  // no display (or a freed one): nothing waits for it
                s.head = 0
                return .nothing
            }
            if let show, epoch == s.epoch {
                s.queue.append(Pending(frame: show.frame, index: show.index))
                if s.queue.count - s.head > Self.maxQueued {  // the oldest is skipped
                    s.head += 1
                    s.skipped += 1
                }
                if s.head >= 64 {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
            }
            guard s.head < s.queue.count, !s.draining else { return .nothing }
            if let concurrent = display as? any ConcurrentAnimationDisplay {
                s.draining = true
                return .drainHere(concurrent)
            }
            if Self.onMainActor { return .drainOnMain }
            if s.hopScheduled { return .nothing }
            s.hopScheduled = true
            return .hop
        }
        switch next {
        case .nothing: break
        case .drainHere(let display): drain(to: display)
        case .drainOnMain: MainActor.assumeIsolated { drainOnMain() }
        case .hop: scheduleHop()
        }
    }

    /// Whether the display is visible: read directly where allowed, else the last value
    /// read on the main actor (and a hop is queued to read it again).
    func isVisible() -> Bool {
        enum Read {
            case value(Bool), cachedThenHop(Bool)
            case concurrent(any ConcurrentAnimationDisplay), main(any AnimationDisplay)
        }
        let read = state.withLock { s -> Read in
            guard let display = s.display else { return .value(true) }
            if let concurrent = display as? any ConcurrentAnimationDisplay { return .concurrent(concurrent) }
            if Self.onMainActor { return .main(display) }
            if s.hopScheduled { return .value(s.visible) }
            s.hopScheduled = true
            return .cachedThenHop(s.visible)
        }
        switch read {
        case .value(let v):
            return v
        case .cachedThenHop(let v):
            scheduleHop()
            return v
        case .concurrent(let d):
            return d.isVisible
        case .main(let d):
            return MainActor.assumeIsolated { refreshVisibility(of: d) }
        }
    }

    // MARK: - Where we are

    /// Marks the main queue, so that code can tell it runs there.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main actor: on the main thread, or inside a job of
    /// the main queue. (Under `swift test` on Linux the main actor's jobs run on the main
    /// queue drained by another thread, so the main-thread test alone would miss them.)
    static var onMainActor: Bool {
        NativeThread.isMain || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    // MARK: - Hand-over

    /// Hands queued frames to a concurrent display on this thread until the queue is empty.
    private func drain(to display: any ConcurrentAnimationDisplay) {
        while let next = pop(for: display) { display.show(next.frame, index: next.index) }
        resumeIfQueued()
    }

    /// A drain that ended because the display changed under it leaves the new display's
    /// frames queued: hand them over the way a new frame would be.
    private func resumeIfQueued() {
        deliver(nil, epoch: .min)
    }

    private func pop(for display: any AnimationDisplay) -> Pending? {
        state.withLock { s -> Pending? in
            guard let current = s.display, current === display, s.head < s.queue.count else {
                s.draining = false
                return nil
            }
            let next = s.queue[s.head]
            s.head += 1
            if s.head == s.queue.count {
                s.queue.removeAll(keepingCapacity: true)
                s.head = 0
            }
            return next
        }
    }

    /// Hands queued frames to a main-actor display, then reads its visibility.
    @MainActor private func drainOnMain() {
        let display = state.withLock { s -> (any AnimationDisplay)? in
            guard !s.draining, let d = s.display else { return nil }
            s.draining = true
            return d
        }
        guard let display else { return }
        while let next = pop(for: display) { display.show(next.frame, index: next.index) }
        refreshVisibility(of: display)
        resumeIfQueued()
    }

    @discardableResult
    @MainActor private func refreshVisibility(of display: any AnimationDisplay) -> Bool {
        let v = display.isVisible
        state.withLock { s in if s.display === display { s.visible = v } }
        return v
    }

    /// On the main thread, reads a main-actor display's visibility now (after `setDisplay`,
    /// outside the player's lock).
    func refreshVisibilityIfOnMain() {
        guard Self.onMainActor, let d = display, !(d is any ConcurrentAnimationDisplay) else { return }
        MainActor.assumeIsolated { _ = refreshVisibility(of: d) }
    }

    private func scheduleHop() {
        Task { @MainActor [self] in
            state.withLock { s in
                s.hopScheduled = false
                s.hops += 1
            }
            drainOnMain()
        }
    }
}
