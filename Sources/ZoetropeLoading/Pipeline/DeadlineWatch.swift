import Zoetrope

/// One thread for the deadlines of every loader's downloads. It runs outside Swift
/// concurrency, so a deadline fires on time even while every thread of the concurrency pool
/// is busy (the inactivity watch, which runs there, must instead credit such time: the
/// deliveries wait too). The thread starts with the first download and ends when none is
/// left.
final class DeadlineWatch: Sendable {
    static let shared = DeadlineWatch()

    private struct Entry {
        weak var download: LoaderDownload?
        var deadline: ContinuousClock.Instant
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var running = false
    }

    private let state = Locked(State())

    /// Calls `download.deadlinePassed()` once `deadline` is reached, unless removed first.
    func add(_ download: LoaderDownload, deadline: ContinuousClock.Instant) {
        let start = state.withLock { s -> Bool in
            s.entries[ObjectIdentifier(download)] = Entry(download: download, deadline: deadline)
            if s.running { return false }
            s.running = true
            return true
        }
        if start { NativeThread.detach(name: "zoetrope.deadlines") { [self] in run() } }
    }

    /// Forgets `download` (it ended).
    func remove(_ download: LoaderDownload) {
        state.withLock { s in
            if s.entries[ObjectIdentifier(download)]?.download === download { s.entries[ObjectIdentifier(download)] = nil }
        }
    }

    /// Downloads watched now.
    var count: Int { state.withLock { $0.entries.count } }

    private func run() {
        while true {
            NativeThread.sleep(.milliseconds(50))
            let now = ContinuousClock.now
            let due = state.withLock { s -> [LoaderDownload]? in
                var due: [LoaderDownload] = []
                for (id, entry) in s.entries {
                    guard let download = entry.download else {
                        s.entries[id] = nil
                        continue
                    }
                    if entry.deadline <= now {
                        due.append(download)
                        s.entries[id] = nil
                    }
                }
                if s.entries.isEmpty, due.isEmpty {
                    s.running = false
                    return nil
                }
                return due
            }
            guard let due else { return }
            // Outside the lock: ending a download calls back into `remove`.
            for download in due { download.deadlinePassed() }
        }
    }
}
