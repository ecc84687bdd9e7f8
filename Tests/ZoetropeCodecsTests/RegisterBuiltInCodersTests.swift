import Foundation
import Testing
import ZoetropeCodecs

@Suite struct RegisterBuiltInCodersTests {
    private static func typeNames(_ registry: CoderRegistry) -> [String] {
        registry.coders.map { String(describing: type(of: $0)) }
    }

    @Test func registersEveryCodecOnceHoweverOftenItIsCalled() throws {
        let registry = CoderRegistry()
        registry.registerBuiltInCoders()
        registry.registerBuiltInCoders()
        #expect(Self.typeNames(registry) == ["GIFCoder", "APNGCoder", "WebPCoder", "AVIFCoder", "JPEGCoder"])
        #expect(registry.fileExtensions == ["gif", "png", "apng", "webp", "avif", "avifs", "jpg", "jpeg", "jpe", "jfif", "jif"])
        let image = try AnimatedImage(data: CodecsFixture.gif(delays: [10, 20]), registry: registry)
        #expect(image.info.format == .gif && image.info.frameCount == 2)
    }

    @Test func concurrentCallsStillRegisterEachCodecOnce() async {
        let registry = CoderRegistry()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { registry.registerBuiltInCoders() } }
        }
        #expect(Self.typeNames(registry) == ["GIFCoder", "APNGCoder", "WebPCoder", "AVIFCoder", "JPEGCoder"])
    }

    @Test func keepsACoderTheApplicationRegisteredAndStillAsksItFirst() {
        let registry = CoderRegistry()
        registry.register(WebPCoder())
        registry.registerBuiltInCoders()
        #expect(Self.typeNames(registry) == ["WebPCoder", "GIFCoder", "APNGCoder", "AVIFCoder", "JPEGCoder"])
    }

    @Test func worksOnTheSharedRegistry() throws {
        CoderRegistry.shared.registerBuiltInCoders()
        CoderRegistry.shared.registerBuiltInCoders()
        #expect(Self.typeNames(.shared).filter { $0 == "GIFCoder" }.count == 1)
        #expect(try AnimatedImage(data: CodecsFixture.gif(delays: [5])).info.format == .gif)
    }
}
