import Foundation
import Testing

/// `zoetrope play` in a real terminal: a detached tmux session at 80×24 runs the built
/// tool between two `stty -g` snapshots, and the test reads the screen tmux holds.
/// Shown as skipped where tmux or the built tool is missing.
@Suite(.serialized) struct PlayCommandTerminalTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The tool `swift build` / `swift test` made, or nil.
    static var tool: String? {
        let candidates =
            [packageRoot + "/.build/debug/zoetrope"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/.build")) ?? [])
            .map { packageRoot + "/.build/" + $0 + "/debug/zoetrope" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether tmux and the built tool are both here; otherwise every test shows as skipped.
    static var canRun: Bool { tmux != nil && tool != nil }

    static var tmux: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A private tmux server running one 80×24 session.
    final class Session {
        let tmux: String
        let socket = "zoetrope-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-play-\(UUID())").path

        init(tmux: String, tool: String, arguments: String, environment: String = "") throws {
            self.tmux = tmux
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            // The snapshots are renamed into place: the shell creates a redirect's file before
            // stty writes to it, and a test that saw the empty file compared "" with the modes.
            // A shell script runs in the tool's process group; an interactive shell would give
            // the tool its own, so Ctrl-C reaches only the tool. Ignoring INT here does the same.
            let script = """
                trap '' INT
                stty -g > '\(dir)/before.part'; mv '\(dir)/before.part' '\(dir)/before'; echo before-play
                \(environment) '\(tool)' play \(arguments); echo "exit=$?"
                stty -g > '\(dir)/after.part'; mv '\(dir)/after.part' '\(dir)/after'; sleep 120
                """
            try script.write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
            // The server this starts outlives the command: it must not inherit a pipe we read.
            try run(["-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sh '\(dir)/run.sh'"], capture: false)
        }

        deinit {
            _ = try? run(["kill-server"], capture: false)
            try? FileManager.default.removeItem(atPath: dir)
        }

        /// Runs tmux with `args` and returns its standard output (when `capture`).
        ///
        /// Spawned directly rather than with Foundation's `Process`: the first tmux command
        /// forks the server, which would inherit the pipes `Process` and `swift test` wait
        /// on and keep them open; here every descriptor above 2 is marked close-on-exec first.
        @discardableResult
        func run(_ args: [String], capture: Bool = true) throws -> String {
            let outPath = dir + "/tmux-\(UUID()).out"
            defer { try? FileManager.default.removeItem(atPath: outPath) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, capture ? outPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // Descriptors above 2 are not passed on (glibc's closefrom action is not imported).
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                if let fd = Int32(name), fd > 2 {
                    let flags = fcntl(fd, F_GETFD)
                    if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
                }
            }
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "TMUX")
            env.removeValue(forKey: "NO_COLOR")  // `swift test` sets it; a test opts in explicitly
            env["TERM"] = "xterm-256color"
            let argv = ([tmux, "-L", socket] + args).map { strdup($0) } + [nil]
            let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for p in argv + envp { free(p) } }
            // Default signal handling in the child: the test runner may ignore SIGHUP, which
            // tmux sends to the panes when the server is killed.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var all = sigset_t(), none = sigset_t()
            sigfillset(&all)
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, tmux, &actions, &attributes, argv, envp)
            guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return capture ? ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "") : ""
        }

        /// The screen as text, or with colour escapes when `escapes`.
        func screen(escapes: Bool = false) throws -> String {
            try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
        }

        func keys(_ keys: String...) throws { try run(["send-keys"] + keys, capture: false) }

        /// Waits up to `seconds` for the screen to satisfy `condition`; returns the last screen.
        func wait(seconds: Double = 120, until condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var text = try screen()
            while !condition(text), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                text = try screen()
            }
            return text
        }

        func file(_ name: String) -> String? {
            (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8))
        }
    }

    /// The frame number the status line shows, once a frame is on screen.
    static func frameNumber(_ screen: String) -> Int? {
        let status = statusLine(screen)
        guard let word = status.split(separator: " ").dropFirst().first, let slash = word.firstIndex(of: "/") else { return nil }
        return Int(word[..<slash])
    }

    /// Playing and past the first frames.
    static func playing(_ screen: String) -> Bool {
        statusLine(screen).contains("play 1/∞") && (frameNumber(screen) ?? 0) >= 3
    }

    static func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.hasPrefix("frame ") }.map(String.init) ?? ""
    }

    @Test(.enabled(if: canRun, "tmux or the built zoetrope is missing"))
    func drawsColourAnswersSpaceAndQAndRestoresTheTerminal() throws {
        let tmux = try #require(Self.tmux), tool = try #require(Self.tool)
        let s = try Session(tmux: tmux, tool: tool, arguments: "")
        // Playing: the status line appears and 24-bit colour half-blocks fill the screen.
        let playing = try s.wait(until: Self.playing)
        #expect(Self.statusLine(playing).contains("/100"), "\(playing)")
        #expect(Self.statusLine(playing).contains("one-ahead"))
        let coloured = try s.screen(escapes: true)
        #expect(coloured.contains("\u{1B}[38;2;"), "no 24-bit foreground colour on screen")
        #expect(coloured.contains("▀"))
        #expect(!playing.contains("before-play"), "the alternate screen should hide the shell's output")

        // Space pauses: the status says so and the frame number stops moving.
        try s.keys("Space")
        let paused = try s.wait { Self.statusLine($0).contains("paused") }
        let frame = Self.statusLine(paused).split(separator: " ").dropFirst().first
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.statusLine(try s.screen()).split(separator: " ").dropFirst().first == frame)
        // → steps one frame while paused.
        try s.keys("Right")
        let stepped = try s.wait(seconds: 120) { Self.statusLine($0).split(separator: " ").dropFirst().first != frame }
        #expect(Self.statusLine(stepped).contains("paused"))

        // q quits with status 0, back on the shell's screen with the terminal modes unchanged.
        try s.keys("q")
        let after = try s.wait { $0.contains("exit=") }
        #expect(after.contains("before-play\nexit=0"), "\(after)")
        #expect(!after.contains("▀"))
        _ = try s.wait(seconds: 120) { _ in s.file("after") != nil }
        #expect(s.file("before") != nil)
        #expect(s.file("before") == s.file("after"))
    }

    @Test(.enabled(if: canRun, "tmux or the built zoetrope is missing"))
    func ctrlCRestoresTheTerminalAndExits130() throws {
        let tmux = try #require(Self.tmux), tool = try #require(Self.tool)
        let s = try Session(tmux: tmux, tool: tool, arguments: "--demo --width 40")
        _ = try s.wait(until: Self.playing)
        try s.keys("C-c")
        let after = try s.wait { $0.contains("exit=") }
        #expect(after.contains("before-play\nexit=130"), "\(after)")
        _ = try s.wait(seconds: 120) { _ in s.file("after") != nil }
        #expect(s.file("before") == s.file("after"))
    }

    @Test(.enabled(if: canRun, "tmux or the built zoetrope is missing"))
    func noColorDrawsCharactersOnly() throws {
        let tmux = try #require(Self.tmux), tool = try #require(Self.tool)
        let s = try Session(tmux: tmux, tool: tool, arguments: "--demo", environment: "NO_COLOR=1")
        let playing = try s.wait(until: Self.playing)
        let coloured = try s.screen(escapes: true)
        #expect(!coloured.contains("38;2;") && !coloured.contains("48;2;"), "colour despite NO_COLOR")
        #expect(!playing.contains("▀"))
        // The yellow digits are the brightest cells: the top of the brightness ramp.
        #expect(playing.contains("@") || playing.contains("%"), "\(playing)")
        try s.keys("q")
        #expect(try s.wait { $0.contains("exit=") }.contains("exit=0"))
    }

    @Test(.enabled(if: canRun, "tmux or the built zoetrope is missing"))
    func resizingLaysTheImageOutAgainAndLeavesNoTrace() throws {
        let tmux = try #require(Self.tmux), tool = try #require(Self.tool)
        let s = try Session(tmux: tmux, tool: tool, arguments: "--demo")
        _ = try s.wait(until: Self.playing)
        try s.run(["resize-window", "-x", "100", "-y", "30"], capture: false)
        // The status line moves to the new last row (row 30).
        let resized = try s.wait {
            $0.split(separator: "\n", omittingEmptySubsequences: false).count >= 30
                && $0.split(separator: "\n", omittingEmptySubsequences: false)[29].hasPrefix("frame ")
        }
        #expect(resized.split(separator: "\n", omittingEmptySubsequences: false)[29].hasPrefix("frame "), "\(resized)")
        try s.keys("q")
        let after = try s.wait { $0.contains("exit=") }
        #expect(after.hasPrefix("before-play\nexit=0"), "\(after)")
        #expect(!after.contains("▀"))
    }
}
