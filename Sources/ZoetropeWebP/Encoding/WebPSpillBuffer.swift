import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a streaming writer's finished bytes wait for the end of the file: in memory up to
/// `threshold` bytes, then in a temporary file (`headerSize` bytes reserved at its start for
/// a header known only at the end), so a long animation's encoded frames do not stay in
/// memory. If no temporary file can be made the bytes simply stay in memory.
final class WebPSpillBuffer {
    let headerSize: Int
    let threshold: Int
    private var memory: [UInt8] = []
    private var file: (handle: FileHandle, url: URL)?
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
            try? file.handle.close()
            try? FileManager.default.removeItem(at: file.url)
        }
    }

    func append(_ bytes: [UInt8]) throws {
        count += bytes.count
        if let file {
            try file.handle.write(contentsOf: bytes)
            return
        }
        memory += bytes
        if memory.count > threshold, let spilled = Self.makeTemporaryFile(in: directory) {
            try spilled.handle.write(contentsOf: [UInt8](repeating: 0, count: headerSize))
            try spilled.handle.write(contentsOf: memory)
            memory = []
            file = spilled
        }
    }

    /// The whole file: `header` then the bytes appended.
    func data(header: [UInt8]) throws -> Data {
        precondition(header.count == headerSize)
        guard let file else { return Data(header + memory) }
        try file.handle.seek(toOffset: 0)
        try file.handle.write(contentsOf: header)
        try file.handle.close()
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
        try file.handle.seek(toOffset: 0)
        try file.handle.write(contentsOf: header)
        try file.handle.close()
        self.file = nil
        defer { try? FileManager.default.removeItem(at: file.url) }
        if rename(file.url.path, url.path) != 0 {
            try Data(contentsOf: file.url, options: .mappedIfSafe).write(to: url, options: .atomic)
        }
    }

    private static func makeTemporaryFile(in directory: URL?) -> (handle: FileHandle, url: URL)? {
        let url = (directory ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent(".zoetrope-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: url) else { return nil }
        return (handle, url)
    }
}
