import Foundation
import Testing

@testable import Zoetrope

/// A coder whose sessions are `SyntheticFrameSource`s it remembers, so a test can count
/// what each session decoded.
final class SyntheticCoder: AnimatedImageCoder {
    static let format = ImageFormat(identifier: "synthetic", mediaType: "application/x-synthetic", fileExtensions: [])
    let durations: [FrameDuration]
    let failing: Set<Int>
    private let made = Locked<[SyntheticFrameSource]>([])

    init(durations: [FrameDuration], failing: Set<Int> = []) {
        self.durations = durations
        self.failing = failing
    }

    var formats: [ImageFormat] { [Self.format] }
    var minimumSniffLength: Int { 4 }
    func sniff(_ prefix: Data) -> SniffResult { ByteSignature.matches(prefix, ascii: "SYNT") ? .match(Self.format, .animated) : .noMatch }
    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        let source = SyntheticFrameSource(frameCount: durations.count, durations: durations, failing: failing)
        made.withLock { $0.append(source) }
        return source
    }

    /// The sessions made so far, oldest first (the first decodes the poster).
    var sessions: [SyntheticFrameSource] { made.withLock { $0 } }

    /// An image of this coder's frames; its poster uses the first session.
    func image() throws -> AnimatedImage {
        try AnimatedImage(data: Data("SYNT".utf8), registry: CoderRegistry(builtIn: [self]))
    }
}

@Suite struct AnimatedImageFramesTests {
    @Test func yieldsEveryFrameInOrderWithItsDisplayDuration() async throws {
        let coder = SyntheticCoder(durations: [.milliseconds(40), .zero, .milliseconds(10), .milliseconds(70)])
        var seen: [(Int, Int, FrameDuration)] = []
        for try await frame in try coder.image().frames() {
            seen.append((frame.index, SyntheticFrameSource.frameIndex(in: frame.pixels), frame.duration))
        }
        #expect(seen.map(\.0) == [0, 1, 2, 3])
        #expect(seen.map(\.1) == [0, 1, 2, 3])
        #expect(seen.map(\.2) == [.milliseconds(40), .milliseconds(100), .milliseconds(100), .milliseconds(70)])
        #expect(coder.sessions.count == 2 && coder.sessions[1].decodedFrames == [0, 1, 2, 3])

        var exact: [FrameDuration] = []
        for try await frame in try coder.image().frames(delayPolicy: .exact) { exact.append(frame.duration) }
        #expect(exact == [.milliseconds(40), .zero, .milliseconds(10), .milliseconds(70)])
    }

    @Test func eachElementOwnsItsPixels() async throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 3))
        var frames: [AnimatedFrame] = []
        for try await frame in try coder.image().frames() { frames.append(frame) }
        #expect(frames.map { SyntheticFrameSource.frameIndex(in: $0.pixels) } == [0, 1, 2])
        let addresses = Set(frames.map { $0.pixels.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
        #expect(addresses.count == 3)
    }

    @Test func cancellingTheConsumerStopsDecoding() async throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 100))
        let image = try coder.image()
        let received = await Task {
            var indexes: [Int] = []
            for try await frame in image.frames() {
                indexes.append(frame.index)
                if frame.index == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return indexes
        }.result
        #expect(try received.get() == [0, 1, 2])
        #expect(coder.sessions.count == 2 && coder.sessions[1].decodedFrames == [0, 1, 2])
    }

    @Test func aFrameThatFailsThrowsItsErrorAfterTheGoodFrames() async throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 5), failing: [3])
        let image = try coder.image()
        var indexes: [Int] = []
        await #expect(throws: AnimatedImageError.invalidData(format: SyntheticCoder.format, reason: "frame 3 is broken")) {
            for try await frame in image.frames() { indexes.append(frame.index) }
        }
        #expect(indexes == [0, 1, 2])
        var iterator = image.frames().makeAsyncIterator()
        for _ in 0..<3 { _ = try await iterator.next() }
        await #expect(throws: AnimatedImageError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}
