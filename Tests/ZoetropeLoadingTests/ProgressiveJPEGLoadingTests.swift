import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// A progressive JPEG shows its scans as they download, through `player(for:)` and
/// `load(_:into:)`: a full-size coarse picture once the first scan is in, the whole-file
/// picture once the last one is.
@Suite(.timeLimit(.minutes(10))) struct ProgressiveJPEGLoadingTests {
    /// A progressive 160×120 picture (libjpeg-turbo's simple progression, ten scans).
    static func progressiveJPEG() -> Data { ProgressiveJPEG.gradient(width: 160, height: 120) }

    /// Where the second scan's header ends: the first scan is complete and, the next header
    /// read, can be drawn; none of the second scan's data is there yet.
    static func secondScan(_ jpeg: Data) -> Int {
        let marker = jpeg.ranges(of: Data([0xFF, 0xDA]))[1].upperBound
        return marker + (Int(jpeg[marker]) << 8 | Int(jpeg[marker + 1]))
    }

    /// A view that keeps every picture it is shown, and the body bytes sent when it was.
    @MainActor final class PictureView: AnimationDisplay {
        var pictures: [PixelBuffer] = []
        var sentAtFirst: Int?
        let probe: @MainActor () -> Int
        var isVisible = true

        init(probe: @escaping @MainActor () -> Int) { self.probe = probe }

        func show(_ frame: PixelBuffer, index: Int) {
            if sentAtFirst == nil { sentAtFirst = probe() }
            if pictures.last != frame { pictures.append(frame) }
        }
    }

    /// Serves `jpeg` held after its first scan; returns the server, the gate and the URL.
    static func serveHeld(_ jpeg: Data) throws -> (LoopbackHTTPServer, LoopbackGate, URL) {
        let server = try LoopbackHTTPServer()
        let gate = LoopbackGate()
        var response = LoopbackHTTPResponse.ok(jpeg)
        response.holdAfter = secondScan(jpeg)
        response.gate = gate
        server.serve("photo.jpg", response)
        return (server, gate, server.url("photo.jpg"))
    }

    /// The first picture is full size and coarse; once `gate` opens, the last is `whole`.
    @MainActor static func expectCoarseThenWhole(_ view: PictureView, opening gate: LoopbackGate, whole: PixelBuffer) async throws {
        let first = try #require(view.pictures.first)
        #expect(first.size == whole.size)
        #expect(first != whole)

        gate.open()
        try await LoadingFixture.wait { view.pictures.last == whole }
        #expect(view.pictures.last == whole)
    }

    @MainActor @Test func aPlayerShowsTheFirstScanBeforeTheRestIsSent() async throws {
        let jpeg = Self.progressiveJPEG()
        let whole = try JPEGCoder().makeFrameSource(data: jpeg, options: .default).decodeFrame(at: 0)
        let (server, gate, url) = try Self.serveHeld(jpeg)
        defer { server.stop() }
        let loader = LoadingFixture.loader()
        let view = PictureView { server.bodyBytesSent("photo.jpg") }
        let player = try await loader.player(for: url, display: view)
        #expect(!gate.isOpen)
        player.play()
        try await LoadingFixture.wait { !view.pictures.isEmpty }
        let sent = try #require(view.sentAtFirst)
        #expect(sent <= Self.secondScan(jpeg) && sent < jpeg.count / 2, "\(sent) of \(jpeg.count) bytes sent")
        try await Self.expectCoarseThenWhole(view, opening: gate, whole: whole)
        #expect(view.pictures.count >= 2)
        player.stop()
    }

    @MainActor @Test func loadIntoAViewShowsTheFirstScanBeforeTheRestIsSent() async throws {
        let jpeg = Self.progressiveJPEG()
        let whole = try JPEGCoder().makeFrameSource(data: jpeg, options: .default).decodeFrame(at: 0)
        let (server, gate, url) = try Self.serveHeld(jpeg)
        defer { server.stop() }
        let loader = LoadingFixture.loader()
        let view = PictureView { server.bodyBytesSent("photo.jpg") }
        loader.load(url, into: view)
        try await LoadingFixture.wait { !view.pictures.isEmpty }
        #expect(!gate.isOpen)
        try await Self.expectCoarseThenWhole(view, opening: gate, whole: whole)
        loader.cancelLoad(for: view)
    }
}
