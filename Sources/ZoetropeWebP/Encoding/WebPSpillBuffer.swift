import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
/// The C library's write(2) (the buffer's own `write` shadows the name).
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Where a streaming writer's finished bytes wait for the end of the file: in memory up to
/// `threshold` bytes, then in a temporary file (`headerSize` bytes reserved at its start for
/// a header known only at the end), so a long animation's encoded frames do not stay in
/// memory. If no temporary file can be made the bytes simply stay in memory.
final class WebPSpillBuffer {
    let headerSize: Int
    let threshold: Int
    private var memory: [UInt8] = []
    /// The temporary file: a descriptor open for writing, and where it is.
    private var file: (fd: Int32, url: URL)?
    /// Bytes appended so far (the header not counted).
    private(set) var count = 0

    /// Where the temporary file goes (nil: the system's temporary directory).
    let directory: URL?

    init(headerSize: Int, threshold: Int = 1 << 20, directory: URL? = nil) {
        self.headerSize = headerSize
        self.threshold = threshold
        self.directory = directory
    }

    deinit {
        if let file {
            close(file.fd)
            try? FileManager.default.removeItem(at: file.url)
        }
    }

    func append(_ bytes: [UInt8]) throws {
        count += bytes.count
        if let file {
            try Self.write(bytes, to: file)
            return
        }
        memory += bytes
        if memory.count > threshold, let spilled = Self.makeTemporaryFile(in: directory) {
            file = spilled
            try Self.write([UInt8](repeating: 0, count: headerSize), to: spilled)
            try Self.write(memory, to: spilled)
            memory = []
        }
    }

    /// The whole file: `header` then the bytes appended.
    func data(header: [UInt8]) throws -> Data {
        precondition(header.count == headerSize)
        guard let file else { return Data(header + memory) }
        try Self.finishFile(file, header: header)
        defer {
            try? FileManager.default.removeItem(at: file.url)
            self.file = nil
        }
        return try Data(contentsOf: file.url)
    }

    /// Writes `header` then the bytes appended to `url` atomically: the temporary file is
    /// renamed into place when it lives on the same file system, otherwise it is copied.
    func write(header: [UInt8], to url: URL) throws {
        precondition(header.count == headerSize)
        guard let file else {
            try Data(header + memory).write(to: url, options: .atomic)
            return
        }
        // The temporary file is private while it is written; the output gets the mode any
        // new file gets (0666 less the umask), as `Data.write(to:options:)` gives it.
        _ = fchmod(file.fd, 0o666 & ~Self.umaskValue())
        try Self.finishFile(file, header: header)
        self.file = nil
        defer { try? FileManager.default.removeItem(at: file.url) }
        if rename(file.url.path, url.path) != 0 {
            try Data(contentsOf: file.url, options: .mappedIfSafe).write(to: url, options: .atomic)
        }
    }

    /// The process's file mode creation mask, read without changing it where the system
    /// says it (Linux's /proc); elsewhere set and restored at once.
    static func umaskValue() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = mode_t(String(line.dropFirst(6).filter { !$0.isWhitespace }), radix: 8)
        {
            return value
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    private static func makeTemporaryFile(in directory: URL?) -> (fd: Int32, url: URL)? {
        let url = (directory ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent(".zoetrope-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).part")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { return nil }
        return (fd, url)
    }

    /// Writes all of `bytes` at the file's current offset.
    private static func write(_ bytes: [UInt8], to file: (fd: Int32, url: URL)) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = systemWrite(file.fd, raw.baseAddress! + done, raw.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw spillError("cannot write \(file.url.path) (errno \(errno))") }
                done += n
            }
        }
    }

    /// Writes `header` over the reserved start of the file and closes it.
    private static func finishFile(_ file: (fd: Int32, url: URL), header: [UInt8]) throws {
        defer { close(file.fd) }
        guard lseek(file.fd, 0, SEEK_SET) == 0 else { throw spillError("cannot seek in \(file.url.path)") }
        try write(header, to: file)
    }

    private static func spillError(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .webp, library: "file system", message: message)
    }
}
