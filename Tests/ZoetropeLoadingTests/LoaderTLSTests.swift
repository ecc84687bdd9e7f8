import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// https on loopback, against `openssl s_server` with a certificate made for the test: the
/// loader's transport verifies the server's certificate against the system's authorities,
/// so a self-signed one fails the load with one typed line.
@Suite(.timeLimit(.minutes(2))) struct LoaderTLSTests {
    static let openssl = "/usr/bin/openssl"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: openssl), "needs openssl (Debian's openssl)"))
    func aSelfSignedCertificateIsRefused() async throws {
        let folder = try TemporaryFolder()
        let key = folder.url.appendingPathComponent("key.pem").path
        let certificate = folder.url.appendingPathComponent("cert.pem").path
        try Self.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        let port = try Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.openssl)
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: the test process's threads block SIGTERM, and the child inherits that.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        guard await waitFor(60, { Self.accepts(port: port) }) else {
            throw ToolFailure("openssl s_server did not listen on port \(port) within 60 s")
        }
        let url = URL(string: "https://127.0.0.1:\(port)/a.gif")!
        do {
            _ = try await AnimatedImage.load(from: url)
            Issue.record("a self-signed certificate was accepted")
        } catch let AnimatedImageError.unreadable(location, reason) {
            #expect(location == url.absoluteString)
            #expect(reason.contains("certificate"), "\(reason)")
        }
    }

    /// Runs openssl with `arguments` and waits for it.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ToolFailure("openssl \(arguments[0]) exited \(process.terminationStatus)") }
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ToolFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `port` now.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
