import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite struct LoaderDeduplicationTests {
    /// Eight requests at once for one URL: one request reaches the server, and all eight
    /// get the one decoded image.
    @Test func eightConcurrentRequestsMakeOneDownload() async throws {
        let server = try LoopbackHTTPServer()
        let gif = LoadingFixture.gif(side: 64, delays: [10, 20, 30])
        // Held until all eight have asked, so none can find the image already cached.
        let gate = LoopbackGate()
        var response = LoopbackHTTPResponse.ok(gif)
        response.holdAfter = 10
        response.gate = gate
        server.serve("banner.gif", response)
        let loader = LoadingFixture.loader()
        let url = server.url("banner.gif")
        let images = try await withThrowingTaskGroup(of: AnimatedImage.self) { group in
            for _ in 0..<8 { group.addTask { try await loader.image(for: url) } }
            try await LoadingFixture.wait { server.requestCount("banner.gif") >= 1 }
            try await Task.sleep(for: .milliseconds(200))
            gate.open()
            var all: [AnimatedImage] = []
            for try await image in group { all.append(image) }
            return all
        }
        #expect(images.count == 8)
        #expect(server.requestCount("banner.gif") == 1)
        #expect(images.allSatisfy { $0.data == gif && $0.info.frameCount == 3 })
        #expect(images[0].poster.pixel(x: 5, y: 5) == LoadingFixture.color(ofFrame: 0))
        #expect(loader.cachedImage(for: url)?.data == gif)
    }
}
