import Foundation

/// Reads a file descriptor (standard input by default) as its data arrives: each `read(2)`
/// that returns bytes hands them on at once, without waiting to fill a buffer, so a consumer
/// fed from a pipe (`curl … | zoetrope frames -`) sees every piece as soon as the writer sends it.
///
/// The value only names the descriptor; it neither owns nor closes it, so it can be copied
/// to another thread (a player's download thread) and read there. It also reads the body of
/// an http(s) argument, which `URLInput` pipes from `zoetrope-fetch`.
struct StandardInputReader: Sendable {
    /// The descriptor read.
    let fileDescriptor: Int32
    /// The most bytes one read asks for.
    let chunkSize: Int
    /// How this input is named in messages.
    let name: String
    /// Runs at the end of the input, before it counts as ended: throws when the writer
    /// failed (the download of a URL), so that its error is reported and not a short input.
    let atEnd: @Sendable () throws -> Void

    /// How inputs read from standard input are named in messages.
    static let displayName = "standard input"

    init(
        fileDescriptor: Int32 = 0, chunkSize: Int = 64 * 1024, name: String = Self.displayName,
        atEnd: @escaping @Sendable () throws -> Void = {}
    ) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.fileDescriptor = fileDescriptor
        self.chunkSize = chunkSize
        self.name = name
        self.atEnd = atEnd
    }

    /// The bytes left to read when the descriptor is a regular file (`zoetrope frames - <
    /// file.gif`): its size past the current offset. Nil for a pipe, a terminal or a socket.
    var remainingByteCount: Int? {
        var st = stat()
        guard fstat(fileDescriptor, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(fileDescriptor, 0, SEEK_CUR)
        guard offset >= 0, st.st_size >= offset else { return nil }
        return Int(st.st_size - offset)
    }

    /// Calls `body` with each piece read, in order, until the end of the input (returns
    /// true) or until `body` returns false (returns false; the rest stays unread). The
    /// bytes are valid only during the call. A read error throws a `ToolError`.
    @discardableResult
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fileDescriptor, buffer.baseAddress, chunkSize)
            if n > 0 {
                guard try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) else { return false }
            } else if n == 0 {
                try atEnd()
                return true
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                // A non-blocking descriptor: wait until it can be read instead of spinning.
                var p = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, -1)
            } else {
                throw ToolError("\(name): cannot read (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Everything left until the end of the input.
    func readToEnd() throws -> Data {
        var data = Data()
        try forEachChunk {
            data.append(contentsOf: $0); return true
        }
        return data
    }
}
