import Foundation
import ZoetropeCodecs
import ZoetropeTestSupport

/// A loopback server with every file the loading view sample asks for: banner.webp (animated,
/// made with the project's WebP encoder), photo.jpg (an 8×8 grey baseline JPEG), big.gif
/// (trickled over about a second and a half, so that the sample cancels one request while
/// it downloads), a.gif, b.gif and c.gif (each costing about 1.6 MB, so that a 4 MiB
/// memory cache holds two), slow.gif (ten frames, trickled; or held at half its bytes
/// until a gate opens) and no missing.gif.
enum SampleServer {
    static let bannerFrames = 3
    static let slowFrames = 10

    /// The files, made once (off the main actor: the 640×640 GIFs take a while in a debug build).
    private static let files: [String: Data] = {
        let gif = LoadingFixture.gif(side: 32, delays: [10, 20, 30])
        var files = [
            "banner.webp": (try? AnimatedImage(data: gif, registry: LoadingFixture.registry()).encoded(with: WebPEncoder())) ?? Data(),
            "photo.jpg": grayJPEG(),
            "big.gif": LoadingFixture.gif(side: 64, delays: Array(repeating: 10, count: 20), noise: true),
            "slow.gif": LoadingFixture.gif(side: 48, delays: Array(repeating: 3, count: slowFrames), noise: true),
        ]
        for (i, name) in ["a.gif", "b.gif", "c.gif"].enumerated() {
            files[name] = LoadingFixture.gif(side: 640, delays: Array(repeating: 10, count: i + 1))
        }
        return files
    }()

    /// A server of the sample's files. With `slowGate`, slow.gif stops at half its bytes
    /// until the gate opens.
    static func start(slowGate: LoopbackGate? = nil) async throws -> LoopbackHTTPServer {
        let files = Self.files
        let server = try LoopbackHTTPServer()
        server.serve("banner.webp", .ok(files["banner.webp"]!, headers: [("Cache-Control", "max-age=600")]))
        let banner = files["banner.webp"]!
        server.route("private/banner.webp") { request in
            request.header("Authorization") == "Bearer demo"
                ? .ok(banner, headers: [("Cache-Control", "max-age=600")]) : .status(401)
        }
        server.serve("photo.jpg", .ok(files["photo.jpg"]!))
        let big = files["big.gif"]!
        server.serve("big.gif", LoopbackHTTPResponse.ok(big).trickled(big.count / 60, every: .milliseconds(25)))
        for name in ["a.gif", "b.gif", "c.gif"] { server.serve(name, .ok(files[name]!)) }
        let slowFile = files["slow.gif"]!
        var slow = LoopbackHTTPResponse.ok(slowFile).trickled(slowFile.count / 40, every: .milliseconds(20))
        if let slowGate {
            slow.holdAfter = slowFile.count / 2
            slow.gate = slowGate
        }
        server.serve("slow.gif", slow)
        return server
    }

    /// The smallest baseline JPEG: 8×8, one grey component, one block whose DC difference
    /// is 0 (level 128) and whose AC coefficients are all zero, with one-code Huffman tables.
    static func grayJPEG() -> Data {
        var b: [UInt8] = [0xFF, 0xD8]
        b += [0xFF, 0xDB, 0x00, 67, 0x00] + Array(repeating: 1, count: 64)  // DQT, all ones
        b += [0xFF, 0xC0, 0x00, 11, 8, 0x00, 8, 0x00, 8, 1, 1, 0x11, 0]  // SOF0 8×8, 1 component
        let oneCode: [UInt8] = [1] + Array(repeating: 0, count: 15) + [0x00]  // symbol 0, code "0"
        b += [0xFF, 0xC4, 0x00, 20, 0x00] + oneCode  // DHT DC 0
        b += [0xFF, 0xC4, 0x00, 20, 0x10] + oneCode  // DHT AC 0 (symbol 0 = EOB)
        b += [0xFF, 0xDA, 0x00, 8, 1, 1, 0x00, 0, 63, 0]  // SOS
        b += [0x3F]  // "0" DC, "0" EOB, 1-padded
        b += [0xFF, 0xD9]
        return Data(b)
    }
}
