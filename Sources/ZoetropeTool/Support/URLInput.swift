import Foundation
import Synchronization

/// An http(s) argument: its body read as it arrives from `zoetrope-fetch`, which loads it
/// with `AnimatedImageLoader` and writes it to a pipe. The tool itself never links
/// FoundationNetworking and libcurl's libraries, which would cost every start of it; only
/// a run that reads a URL loads them, in the helper (Docs/Benchmarks.md, "The tool and URLs").
enum URLInput {
    /// Whether `argument` is read as a URL rather than a file path.
    static func isURL(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `zoetrope-fetch`, beside this executable.
    static var helperPath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            n > 0
            ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("zoetrope-fetch").path
    }

    /// The whole download's deadline in seconds (`--timeout`), for every URL of this run.
    private static let timeout = Mutex<String?>(nil)

    /// Takes a command's `--timeout SECONDS` (nil: the loader's own deadline); refuses
    /// anything but a positive number of seconds.
    static func setTimeout(_ value: String?) throws {
        guard let value else { return }
        guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw ToolError("--timeout takes a number of seconds from more than 0 to 86400, not '\(value)'")
        }
        timeout.withLock { $0 = value }
    }

    /// Starts the download of `url` (through the disk cache in `cache`, when given) and
    /// returns a reader of its body named by the URL. At the end of the body the reader
    /// throws the download's error, if it failed, as one line.
    static func reader(for url: String, cache: String?) throws -> StandardInputReader {
        let limit = timeout.withLock { $0 }.map { ["--timeout", $0] } ?? []
        let child = try Helper(arguments: [url] + (cache.map { ["--cache", $0] } ?? []) + limit, name: url)
        return StandardInputReader(fileDescriptor: child.output, name: url, atEnd: { try child.end() })
    }

    /// The running helper: its body on `output`, its error line on a second pipe.
    private final class Helper: Sendable {
        let output: Int32
        private let errors: Int32
        private let pid: pid_t
        private let name: String
        /// The outcome once the helper has been waited for (the end can be reached twice).
        private let outcome = Mutex<Result<Void, ToolError>?>(nil)

        init(arguments: [String], name: String) throws {
            self.name = name
            var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
            guard pipe(&out) == 0, pipe(&err) == 0 else { throw ToolError("\(name): cannot start the download (no pipe)") }
            // Not inherited by later helpers (info URL URL ...); dup2 gives the child its own copies.
            for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, out[1], 1)
            posix_spawn_file_actions_adddup2(&actions, err[1], 2)
            // Keys of `play` are read from the terminal: the helper stays away from it.
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            let path = URLInput.helperPath
            guard access(path, X_OK) == 0 else {
                close(out[0]); close(out[1]); close(err[0]); close(err[1])
                throw ToolError("\(name): URLs need zoetrope-fetch beside zoetrope: build it (swift build --product zoetrope-fetch)")
            }
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            defer { for p in argv { free(p) } }
            var child: pid_t = 0
            let status = posix_spawn(&child, path, &actions, nil, argv, environ)
            close(out[1])
            close(err[1])
            guard status == 0 else {
                close(out[0])
                close(err[0])
                throw ToolError(
                    "\(name): cannot start \(path) (\(String(cString: strerror(status)))); "
                        + "URLs need it beside zoetrope (swift build --product zoetrope-fetch)")
            }
            output = out[0]
            errors = err[0]
            pid = child
        }

        /// Waits for the helper once its body has ended; throws its error line when it failed.
        func end() throws {
            let result = outcome.withLock { outcome -> Result<Void, ToolError> in
                if let outcome { return outcome }
                var message = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = read(errors, &buffer, buffer.count)
                    if n > 0 { message.append(contentsOf: buffer[0..<n]) } else if n == 0 || errno != EINTR { break }
                }
                close(errors)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
                let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
                let signal = status & 0x7f
                let result: Result<Void, ToolError> =
                    exited && code == 0
                    ? .success(())
                    : .failure(
                        ToolError(
                            !exited
                                ? "\(name): the download stopped: zoetrope-fetch was killed by signal \(signal) "
                                    + "(URLSession on Linux stops its process on some malformed responses)"
                                : text.isEmpty ? "\(name): the download failed (status \(status))" : text))
                outcome = result
                return result
            }
            try result.get()
        }
    }
}
