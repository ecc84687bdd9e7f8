import Foundation
import Synchronization

/// Signals received and not yet handled, one bit per signal number. Written by the
/// signal handlers (a lock-free store is async-signal-safe), read by the play loop.
let pendingSignals = Atomic<Int>(0)

/// The terminal while `zoetrope play` owns it: the alternate screen, the cursor hidden,
/// keys read one at a time without echo. `restore()` puts everything back exactly as it
/// was, and runs on quitting, on Ctrl-C (SIGINT) and on SIGTERM.
final class TerminalSession {
    private var saved = termios()
    private let keys: Bool
    /// Where keys are read: standard input when it is the terminal, else the controlling
    /// terminal (`play -` reads the animation from standard input).
    private let keyInput: Int32
    private var restored = false

    /// Takes over the terminal on standard output; reads keys from standard input when it
    /// is a terminal, else from `/dev/tty` when the process has one.
    init() {
        if isatty(STDIN_FILENO) != 0 {
            keyInput = STDIN_FILENO
        } else {
            let tty = open("/dev/tty", O_RDONLY | O_CLOEXEC)
            keyInput = tty >= 0 && isatty(tty) != 0 ? tty : -1
        }
        keys = keyInput >= 0
        if keys, tcgetattr(keyInput, &saved) == 0 {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(keyInput, TCSANOW, &raw)
        }
        for s in [SIGINT, SIGTERM, SIGWINCH] {
            signal(s) { n in pendingSignals.bitwiseOr(1 << Int(n), ordering: .relaxed) }
        }
        TerminalSession.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Whether keys can be read.
    var readsKeys: Bool { keys }

    /// Leaves the alternate screen, shows the cursor and restores the saved modes.
    func restore() {
        guard !restored else { return }
        restored = true
        TerminalSession.write("\u{1B}[0m\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l")
        if keys { tcsetattr(keyInput, TCSANOW, &saved) }
        if keyInput > STDERR_FILENO { close(keyInput) }
        for s in [SIGINT, SIGTERM, SIGWINCH] { signal(s, SIG_DFL) }
    }

    deinit { restore() }

    /// Bytes typed since the last call, waiting up to `timeoutMilliseconds` for the first.
    func readKeys(timeoutMilliseconds: Int32) -> [UInt8] {
        guard keys else {
            usleep(useconds_t(timeoutMilliseconds) * 1000)
            return []
        }
        var fds = pollfd(fd: keyInput, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, timeoutMilliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(keyInput, &buffer, buffer.count)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// The terminal's size in cells, or 80×24 when it cannot be read.
    static func size() -> (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Writes all of `text` to standard output, unbuffered.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
