import Zoetrope

/// A display that draws frames into the terminal with `HalfBlockRenderer`, centred in the
/// space above a one-line status bar, or (when `draws` is false) only counts them, for runs
/// whose output is not a terminal. A `ConcurrentAnimationDisplay`: the player calls it on
/// the clock's thread, so `zoetrope play`'s loop needs no main actor.
nonisolated final class TerminalDisplay: ConcurrentAnimationDisplay {
    private struct State {
        var columns: Int
        var rows: Int
        var frame = PixelBuffer()
        var scaled = PixelBuffer()
        var hasFrame = false
        var index = 0
        var status = ""
        var closed = false
        var showTimes: [Int64] = []
        var framesShown = 0
    }
    private let state: Locked<State>
    private let renderer: HalfBlockRenderer
    private let widthOverride: Int?
    private let now: @Sendable () -> Int64
    /// Whether frames are drawn (a terminal) or only counted.
    let draws: Bool

    /// A display for a terminal of `columns` × `rows` cells; `width` caps the image's columns.
    init(columns: Int, rows: Int, width: Int?, color: Bool, draws: Bool, now: @escaping @Sendable () -> Int64) {
        state = Locked(State(columns: columns, rows: rows))
        renderer = HalfBlockRenderer(color: color)
        widthOverride = width
        self.draws = draws
        self.now = now
    }

    var isVisible: Bool { true }

    func show(_ frame: PixelBuffer, index: Int) {
        let t = now()
        state.withLock { s in
            guard !s.closed else { return }
            s.framesShown += 1
            s.index = index
            s.showTimes.append(t)
            if s.showTimes.count > 240 { s.showTimes.removeFirst(s.showTimes.count - 240) }
            guard draws else { return }
            frame.copy(into: &s.frame, size: frame.size, format: .rgba8)
            s.hasFrame = true
            draw(&s)
        }
    }

    /// Frames shown per second over the last second.
    var effectiveFPS: Double {
        let t = now()
        return state.withLock { s in
            Double(s.showTimes.filter { t - $0 <= 1_000_000_000 }.count)
        }
    }

    /// The index of the frame on screen.
    var frameIndex: Int { state.withLock { $0.index } }

    /// How many frames were shown in all.
    var framesShown: Int { state.withLock { $0.framesShown } }

    /// Replaces the status line.
    func setStatus(_ text: String) {
        state.withLock { s in
            guard !s.closed, draws, text != s.status else { return }
            s.status = text
            TerminalSession.write(statusText(s))
        }
    }

    /// Lays the image out again for a new terminal size.
    func resize(columns: Int, rows: Int) {
        state.withLock { s in
            guard !s.closed, draws else { return }
            s.columns = columns
            s.rows = rows
            TerminalSession.write("\u{1B}[0m\u{1B}[2J")
            if s.hasFrame { draw(&s) } else { TerminalSession.write(statusText(s)) }
        }
    }

    /// Stops drawing; later `show` calls are ignored.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Where the image goes: its cell size and 1-based top-left cell.
    static func layout(frame: PixelSize, columns: Int, rows: Int, width: Int?) -> (columns: Int, rows: Int, row: Int, column: Int) {
        let usableRows = max(1, rows - 1)
        // The last column stays empty: a character there leaves the cursor waiting to wrap,
        // and terminals (tmux among them) then reflow such lines on resize.
        let maxColumns = max(1, min(columns - 1, width ?? columns))
        let fit = HalfBlockRenderer.fit(frame, columns: maxColumns, rows: usableRows)
        return (fit.columns, fit.rows, 1 + (usableRows - fit.rows) / 2, 1 + max(0, columns - fit.columns) / 2)
    }

    private func draw(_ s: inout State) {
        let l = Self.layout(frame: s.frame.size, columns: s.columns, rows: s.rows, width: widthOverride)
        guard l.columns > 0, l.rows > 0 else { return }
        s.frame.copy(into: &s.scaled, size: PixelSize(width: l.columns, height: l.rows * 2), format: .rgba8)
        TerminalSession.write(renderer.render(s.scaled, row: l.row, column: l.column) + statusText(s))
    }

    private func statusText(_ s: State) -> String {
        let text = String(s.status.prefix(max(0, s.columns - 1)))
        return "\u{1B}[\(s.rows);1H\u{1B}[0m\u{1B}[2K" + text
    }
}
