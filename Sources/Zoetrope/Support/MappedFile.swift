#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file by mapping it into memory (`mmap`, read-only, private): pages are read
/// when a decoder touches them and the bytes are never copied. The mapping lives as long
/// as the returned `Data` (and its copies); the file should not shrink meanwhile.
enum MappedFile {
    /// The file's bytes, or `.unreadable` naming `path` and the system's reason.
    static func read(path: String) throws(AnimatedImageError) -> Data {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(location: path, reason: reason(errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(location: path, reason: reason(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(location: path, reason: (status.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "not a regular file")
        }
        guard status.st_size > 0 else { return Data() }
        guard let size = Int(exactly: status.st_size) else { throw .unreadable(location: path, reason: "too large to map") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable(location: path, reason: "cannot map the file (\(reason(errno)))")
        }
        return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
        #else
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .unreadable(location: path, reason: error.localizedDescription)
        }
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// "no such file" for ENOENT (the wording the tool has always used), else `strerror`.
    private static func reason(_ code: Int32) -> String {
        if code == ENOENT { return "no such file" }
        return String(cString: strerror(code)).lowercased()
    }
    #endif
}
