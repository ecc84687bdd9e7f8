#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls the disk cache makes on its files, each so that a name in a folder the
/// cache shares with others cannot make it follow a link, block, or touch a file it did
/// not write: a file is opened only when `lstat` calls it a regular file with one link,
/// with `O_NOFOLLOW | O_NONBLOCK`, and kept only when `fstat` of the descriptor agrees
/// (the same file, still regular). Reads and writes are positioned and whole, or fail.
enum DiskCacheFile {
    /// An open regular file and what `fstat` said of it.
    struct Opened {
        let descriptor: Int32
        let info: stat

        var size: Int { Int(info.st_size) }
        /// The modification time in microseconds since 1970 ("last used").
        var stamp: Int64 { DiskCacheFile.stamp(of: info) }

        func close() { _ = DiskCacheFile.closeDescriptor(descriptor) }
    }

    /// `path` opened for reading (or reading and writing), or nil when it is not a regular
    /// file with a single link (a symbolic link, a FIFO, a device, a folder, a hard link to
    /// a file elsewhere) or cannot be opened.
    static func openRegular(_ path: String, writing: Bool = false) -> Opened? {
        var before = stat()
        guard lstat(path, &before) == 0, isRegular(before), before.st_nlink == 1 else { return nil }
        let fd = open(path, (writing ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, isRegular(info), info.st_nlink == 1, info.st_dev == before.st_dev,
            info.st_ino == before.st_ino
        else {
            _ = closeDescriptor(fd)
            return nil
        }
        return Opened(descriptor: fd, info: info)
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

    /// What `lstat` says of `path`, without following a link.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func isRegular(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Fills `buffer` from `offset`; false on an error or a file that ends first (cut by
    /// another process since it was opened).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Writes all of `bytes` at `offset`; false on an error.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Sets the open file's access and modification times to `stamp` (microseconds).
    static func mark(_ fd: Int32, used stamp: Int64) {
        let time = timespec(tv_sec: .init(stamp / 1_000_000), tv_nsec: .init(stamp % 1_000_000 * 1000))
        var times = (time, time)
        _ = withUnsafePointer(to: &times) { $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) } }
    }

    /// The modification time in microseconds since 1970.
    static func stamp(of info: stat) -> Int64 {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    /// Whether a write by process `pid` may still be going on: the process exists (or
    /// exists under another user).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
