import Foundation
import Zoetrope

/// A response body written to the disk cache's folder as it arrives instead of held in
/// memory (`Configuration.diskStreamingThreshold`). The file is one of the cache's temporary
/// files, so a process that dies mid-download leaves what the cache's scan removes; the
/// finished body is read back once, for its decode and its entry, and the file removed.
final class DiskCacheSpool: Sendable {
    private struct State {
        var fd: Int32
        var length = 0
    }

    private let path: String
    private let state: Locked<State>

    /// A new temporary file at `path`, or nil when it cannot be made.
    init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.path = path
        state = Locked(State(fd: fd))
    }

    /// Bytes written so far.
    var count: Int { state.withLock { $0.length } }

    /// Writes `data` after what is there; false when the file is gone or the disk full.
    func append(_ data: Data) -> Bool {
        state.withLock { s in
            guard s.fd >= 0 else { return false }
            let written = data.withUnsafeBytes { DiskCacheFile.write(s.fd, $0, at: s.length) }
            if written { s.length += data.count }
            return written
        }
    }

    /// Everything written, read back; nil when the file no longer reads whole.
    func contents() -> Data? {
        state.withLock { s in
            guard s.fd >= 0 else { return nil }
            if s.length == 0 { return Data() }
            var data = Data(count: s.length)
            let read = data.withUnsafeMutableBytes { DiskCacheFile.read(s.fd, into: $0, at: 0) }
            return read ? data : nil
        }
    }

    /// Closes and removes the file (once).
    func discard() {
        state.withLock { s in
            guard s.fd >= 0 else { return }
            close(s.fd)
            s.fd = -1
            unlink(path)
        }
    }

    deinit { discard() }
}
