import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite struct LoadingTests {
    @Test func contentsOfAFileDecodesItsInfoAndPoster() throws {
        let folder = try TemporaryFolder()
        // A GIF named .webp: the content decides, never the name.
        let url = try folder.write(CodecsFixture.gif(delays: [10, 20, 30]), to: "spinner.webp")
        let image = try AnimatedImage(contentsOf: url, registry: CodecsFixture.registry())
        #expect(image.info.format == .gif)
        #expect(image.info.frameDurations == [.centiseconds(10), .centiseconds(20), .centiseconds(30)])
        #expect(image.poster.pixel(x: 1, y: 1) == CodecsFixture.color(ofFrame: 0))
    }

    /// Mapped, not copied: the image's bytes are the file's pages, so a byte written to
    /// the file after opening shows through (a copy would keep the old byte).
    @Test func contentsOfMapsTheFileInsteadOfCopyingIt() throws {
        let folder = try TemporaryFolder()
        let gif = CodecsFixture.gif(delays: [10, 10])
        let url = try folder.write(gif, to: "mapped.gif")
        let image = try AnimatedImage(contentsOf: url, registry: CodecsFixture.registry())
        #expect(image.data == gif)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(gif.count - 1))
        try handle.write(contentsOf: [0x21])
        try handle.close()
        #expect(image.data.last == 0x21)
        #expect(image.data.count == gif.count)
    }

    @Test func aMissingFileOrAFolderSaysWhichPathAndWhy() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("nope.gif")
        #expect(throws: AnimatedImageError.unreadable(location: missing.path, reason: "no such file")) {
            try AnimatedImage(contentsOf: missing, registry: CodecsFixture.registry())
        }
        #expect(throws: AnimatedImageError.unreadable(location: folder.url.path, reason: "is a directory")) {
            try AnimatedImage(contentsOf: folder.url, registry: CodecsFixture.registry())
        }
        do {
            _ = try AnimatedImage(contentsOf: missing, registry: CodecsFixture.registry())
        } catch {
            #expect(error.localizedDescription == "\(missing.path): no such file")
        }
    }

    @Test func namedFindsAResourceByTryingEachRegisteredExtension() throws {
        let folder = try TemporaryFolder()
        try folder.write(CodecsFixture.gif(delays: [7, 7]), to: "spinner.gif")
        try folder.write(Data("notes".utf8), to: "spinner.txt")
        let bundle = try #require(Bundle(path: folder.url.path))
        let registry = CodecsFixture.registry()
        let byName = try AnimatedImage(named: "spinner", in: bundle, registry: registry)
        #expect(byName.info.frameDurations == [.centiseconds(7), .centiseconds(7)])
        let withExtension = try AnimatedImage(named: "spinner.gif", in: bundle, registry: registry)
        #expect(withExtension.data == byName.data)
    }

    @Test func namedWithoutAMatchListsTheExtensionsItTried() throws {
        let folder = try TemporaryFolder()
        try folder.write(Data("notes".utf8), to: "spinner.txt")
        let bundle = try #require(Bundle(path: folder.url.path))
        let expected = AnimatedImageError.resourceNotFound(
            name: "spinner", bundlePath: bundle.bundlePath,
            triedExtensions: ["gif", "png", "apng", "webp", "avif", "avifs", "jpg", "jpeg", "jpe", "jfif", "jif"])
        #expect(throws: expected) { try AnimatedImage(named: "spinner", in: bundle, registry: CodecsFixture.registry()) }
        #expect(
            expected.description
                == "no resource named 'spinner' in the bundle at \(bundle.bundlePath) (tried .gif, .png, .apng, .webp, .avif, .avifs, .jpg, .jpeg, .jpe, .jfif, .jif)"
        )
    }

    @Test func loadFromAFileURLReadsAndDecodes() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(CodecsFixture.gif(delays: [4, 8]), to: "a.gif")
        let image = try await AnimatedImage.load(from: url, registry: CodecsFixture.registry())
        #expect(image.info.frameDurations == [.centiseconds(4), .centiseconds(8)])
        #expect(image.poster.pixel(x: 0, y: 0) == CodecsFixture.color(ofFrame: 0))
        await #expect(throws: AnimatedImageError.unreadable(location: folder.url.appendingPathComponent("b.gif").path, reason: "no such file")) {
            try await AnimatedImage.load(from: folder.url.appendingPathComponent("b.gif"), registry: CodecsFixture.registry())
        }
    }

    @Test func aFailedTransferNamesTheURL() async throws {
        // Nothing listens on the discard port of the loopback interface: refused at once.
        let url = try #require(URL(string: "http://127.0.0.1:9/spinner.gif"))
        do {
            _ = try await AnimatedImage.load(from: url, registry: CodecsFixture.registry())
            Issue.record("loaded from a closed port")
        } catch let error as AnimatedImageError {
            guard case .unreadable(let location, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(location == "http://127.0.0.1:9/spinner.gif" && !reason.isEmpty)
            #expect(error.localizedDescription.hasPrefix("http://127.0.0.1:9/spinner.gif: "))
        }
    }

    @Test func loadFromANonFileURLGoesThroughURLSession() async throws {
        let gif = CodecsFixture.gif(delays: [3, 6])
        let url = try #require(URL(string: "data:image/gif;base64," + gif.base64EncodedString()))
        let image = try await AnimatedImage.load(from: url, registry: CodecsFixture.registry())
        #expect(image.data == gif)
        #expect(image.info.frameCount == 2)
    }
}

/// The typed errors an application can name: the synchronous ways to open an image throw
/// `AnimatedImageError` only, so a function that throws that type can call them.
func open(_ d: Data) throws(AnimatedImageError) -> AnimatedImage { try AnimatedImage(data: d) }
func openFile(_ url: URL) throws(AnimatedImageError) -> AnimatedImage { try AnimatedImage(contentsOf: url) }
func convert(_ image: AnimatedImage) throws(AnimatedImageError) -> Data { try image.encoded(with: GIFEncoder()) }

@Suite struct TypedErrorAndCancellationTests {
    @Test func openingAndEncodingThrowAnimatedImageErrorOnly() throws {
        CoderRegistry.shared.registerBuiltInCoders()
        let gif = CodecsFixture.gif(delays: [4, 8])
        let image = try open(gif)
        #expect(image.info.frameCount == 2)
        let result: Result<AnimatedImage, AnimatedImageError> = Result { () throws(AnimatedImageError) in try open(Data("not an image".utf8)) }
        if case .failure(.unrecognizedFormat) = result {} else { Issue.record("\(result)") }
        let folder = try TemporaryFolder()
        #expect(try openFile(try folder.write(gif, to: "a.gif")).info.frameCount == 2)
        #expect(try AnimatedImage(data: convert(image)).info.frameCount == 2)
    }

    /// A custom coder's own error comes out of `init(data:)` as `.codecFailure` naming it.
    @Test func aCustomCodersOwnErrorBecomesACodecFailure() {
        struct Broken: Error, CustomStringConvertible { var description: String { "the test coder broke" } }
        struct BrokenCoder: AnimatedImageCoder {
            static let format = ImageFormat(identifier: "broken", mediaType: "image/x-broken", fileExtensions: [])
            var formats: [ImageFormat] { [Self.format] }
            var minimumSniffLength: Int { 6 }
            func sniff(_ prefix: Data) -> SniffResult { prefix.starts(with: Array("BROKEN".utf8)) ? .match(Self.format, .animated) : .noMatch }
            func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource { throw Broken() }
        }
        let registry = CoderRegistry()
        registry.register(BrokenCoder())
        #expect(throws: AnimatedImageError.codecFailure(format: BrokenCoder.format, library: "Broken", message: "the test coder broke")) {
            try AnimatedImage(data: Data("BROKEN".utf8), registry: registry)
        }
    }

    /// A task cancelled before `load(from:)` starts gets `CancellationError`, for a file too.
    @Test func aLoadInACancelledTaskThrowsCancellationError() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(CodecsFixture.gif(delays: [4, 8]), to: "a.gif")
        let task = Task { () async throws -> AnimatedImage in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await AnimatedImage.load(from: url, registry: CodecsFixture.registry())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// A download cancelled while the server holds its answer: `CancellationError`, not
    /// `.unreadable(reason: "cancelled")`.
    @MainActor @Test func aLoadCancelledDuringTheDownloadThrowsCancellationError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gate = LoopbackGate()
        var held = LoopbackHTTPResponse.ok(CodecsFixture.gif(delays: [4, 8]))
        held.holdAfter = 0
        held.gate = gate
        server.serve("/slow.gif", held)
        let url = server.url("/slow.gif")
        let task = Task.detached { try await AnimatedImage.load(from: url, registry: CodecsFixture.registry()) }
        // Long: the detached load needs a thread of the cooperative pool, which the suite's
        // long synchronous tests can hold for minutes on a 2-core machine.
        #expect(await waitFor(600) { server.requestCount("/slow.gif") >= 1 })
        task.cancel()
        gate.open()
        do {
            _ = try await task.value
            Issue.record("a cancelled load returned an image")
        } catch is CancellationError {
        } catch {
            Issue.record("a cancelled load threw \(error), not CancellationError")
        }
    }
}

@Suite struct FramesOfAFileTests {
    @Test func aTruncatedGIFYieldsItsCompleteFramesThenThrowsTheTruncation() async throws {
        let whole = CodecsFixture.gif(delays: [10, 20, 30])
        // Cut inside the third image's data: two frames are complete.
        let cut = whole.prefix(whole.count - 6)
        let image = try AnimatedImage(data: Data(cut), registry: CodecsFixture.registry())
        let truncation = try #require(image.info.truncation)
        var colours: [[UInt8]] = []
        await #expect(throws: truncation) {
            for try await frame in image.frames() { colours.append(frame.pixels.pixel(x: 1, y: 0)) }
        }
        #expect(colours == [CodecsFixture.color(ofFrame: 0), CodecsFixture.color(ofFrame: 1)])
    }
}
