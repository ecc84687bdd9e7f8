import Foundation
import Testing
import Zoetrope
import ZoetropeDemo

/// A coder that recognises a fixed magic string, for registry ordering tests.
struct MagicCoder: AnimatedImageCoder {
    let magic: String
    let format: ImageFormat
    var formats: [ImageFormat] { [format] }
    var minimumSniffLength: Int { magic.utf8.count }
    func sniff(_ prefix: Data) -> SniffResult {
        let m = Array(magic.utf8)
        if prefix.count < m.count {
            return ByteSignature.matches(prefix, Array(m.prefix(prefix.count))) ? .needMoreData(minimumLength: m.count) : .noMatch
        }
        return ByteSignature.matches(prefix, m) ? .match(format, .still) : .noMatch
    }
    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try DemoAnimation.makeFrameSource(options: options)
    }
}

@Suite struct CoderRegistryTests {
    let a = ImageFormat(identifier: "a", mediaType: "image/x-a", fileExtensions: ["a"])
    let b = ImageFormat(identifier: "b", mediaType: "image/x-b", fileExtensions: ["b"])

    @Test func applicationCodersAreAskedBeforeBuiltInOnesMostRecentFirst() {
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "GIF8", format: a)])
        #expect(r.format(of: Data("GIF89a".utf8)) == a)
        r.register(MagicCoder(magic: "GIF", format: b))
        #expect(r.format(of: Data("GIF89a".utf8)) == b)
        let c = ImageFormat(identifier: "c", mediaType: "image/x-c", fileExtensions: [])
        r.register(MagicCoder(magic: "GI", format: c))
        #expect(r.format(of: Data("GIF89a".utf8)) == c)
        #expect(r.coders.map(\.formats[0].identifier) == ["c", "b", "a"])
    }

    @Test func unregisteringRemovesOnlyThatCoder() {
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "AAAA", format: a)])
        let token = r.register(MagicCoder(magic: "AAAA", format: b))
        #expect(r.format(of: Data("AAAA".utf8)) == b)
        #expect(r.unregister(token))
        #expect(!r.unregister(token))
        #expect(r.format(of: Data("AAAA".utf8)) == a)
        #expect(r.unregisterAll(producing: a) == 1)
        #expect(r.format(of: Data("AAAA".utf8)) == nil)
    }

    @Test func aShortPrefixAsksForMoreUnlessTheDataIsComplete() {
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "ABCDEF", format: a), MagicCoder(magic: "AB", format: b)])
        let prefix = Data("ABC".utf8)
        #expect(r.sniff(prefix, isComplete: false)?.result == .needMoreData(minimumLength: 6))
        #expect(r.sniff(prefix, isComplete: true)?.result == .match(b, .still))
        #expect(r.sniffLength == 6)
    }

    @Test func unknownContentIsATypedErrorShowingTheFirstBytes() {
        let r = CoderRegistry()
        #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: Array("hello".utf8))) {
            try r.makeFrameSource(data: Data("hello".utf8))
        }
        #expect(AnimatedImageError.unrecognizedFormat(prefix: [0x68, 0x69]).description.hasSuffix("first bytes: 68 69)"))
    }

    @Test func manyThreadsRegisterAndSniffAtOnce() async {
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "BASE", format: a)])
        let base = a
        let formats = (0..<64).map { ImageFormat(identifier: "f\($0)", mediaType: "image/x-f\($0)", fileExtensions: []) }
        await withTaskGroup(of: Bool.self) { group in
            for (i, f) in formats.enumerated() {
                group.addTask {
                    let token = r.register(MagicCoder(magic: "F\(i)#", format: f))
                    // Our own coder must be found while others come and go.
                    let found = r.format(of: Data("F\(i)#".utf8)) == f && r.format(of: Data("BASE".utf8)) == base
                    if i % 2 == 0 { r.unregister(token) }
                    return found
                }
            }
            for await ok in group { #expect(ok) }
        }
        #expect(r.coders.count == 1 + 32)
    }

    @Test func stillImagesAnswerFromTheirFirstBytes() throws {
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "STILL", format: a)])
        #expect(try r.isAnimated(Data("STILL".utf8)) == false)
    }
}

/// A coder whose `formats` asks the registry for its coders from another thread and
/// counts the times that call could not finish: then the registry held its lock while it
/// read `formats`.
struct LockProbingCoder: AnimatedImageCoder {
    let format: ImageFormat
    let registry: CoderRegistry
    let readsUnderLock = Locked(0)

    var formats: [ImageFormat] {
        let done = DispatchSemaphore(value: 0)
        let registry = registry
        Thread.detachNewThread {
            _ = registry.coders
            done.signal()
        }
        if done.wait(timeout: .now() + 60) == .timedOut { readsUnderLock.withLock { $0 += 1 } }
        return [format]
    }
    var minimumSniffLength: Int { 1 }
    func sniff(_ prefix: Data) -> SniffResult { .noMatch }
    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try DemoAnimation.makeFrameSource(options: options)
    }
}

@Suite struct CoderRegistryLockTests {
    @Test func unregisterAllReadsTheCodersFormatsOutsideItsLock() {
        let r = CoderRegistry()
        let a = ImageFormat(identifier: "a", mediaType: "image/x-a", fileExtensions: [])
        let probe = LockProbingCoder(format: a, registry: r)
        r.register(probe)
        r.register(MagicCoder(magic: "B", format: ImageFormat(identifier: "b", mediaType: "image/x-b", fileExtensions: [])))
        #expect(r.unregisterAll(producing: a) == 1)
        #expect(probe.readsUnderLock.withLock { $0 } == 0)
        #expect(r.coders.map(\.formats[0].identifier) == ["b"])
    }

    @Test func aFixedMagicSniffsMatchShortPrefixAndMismatch() {
        let magic = Array("ZRAW1\n".utf8)
        let format = ImageFormat(identifier: "zraw", mediaType: "application/x-zraw", fileExtensions: ["zraw"])
        #expect(ByteSignature.sniff(Data("ZRAW1\nrest".utf8), magic: magic, format: format) == .match(format, .unknown))
        #expect(ByteSignature.sniff(Data("ZRA".utf8), magic: magic, format: format) == .needMoreData(minimumLength: 6))
        #expect(ByteSignature.sniff(Data("ZRB".utf8), magic: magic, format: format) == .noMatch)
        #expect(
            ByteSignature.sniff(Data("ZRAW1\n".utf8).dropFirst(0), magic: magic, format: format, kind: .animated)
                == .match(format, .animated))
    }
}
