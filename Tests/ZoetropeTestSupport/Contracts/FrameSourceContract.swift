import Foundation
import Zoetrope

/// Checks that a `FrameSource` keeps the protocol's promises, in the spirit of
/// swift-collections' `checkSequence`: one checker every codec (and the demo) runs through,
/// instead of a copy of these tests per codec.
///
/// - any order of decoding gives the frames sequential decoding gives, into fresh, reused or
///   kept buffers;
/// - a reused buffer keeps its storage when the frame fits it, and a frame the caller kept
///   never changes when later frames decode;
/// - an index past the end (or negative) throws `.frameOutOfRange`, or the recorded
///   truncation once the frames that decode have run out;
/// - a truncated file yields the frames that were complete, with the full file's pixels,
///   then `.truncated(completeFrames:)` naming exactly how many;
/// - for sources that report their cost (`SeekCostReporting`): decoding in order costs one
///   frame per call, and a seek to frame *i* no more than `i − restartFrame(for: i) + 1`.
///
/// `violations()` returns what broke, one line each (empty when the source keeps them all).
public struct FrameSourceContract {
    /// Makes a fresh source over the complete image.
    public var makeSource: () throws -> any FrameSource
    /// Makes sources over truncated copies of the image, named by where they were cut.
    public var truncations: [(name: String, make: () throws -> any FrameSource)] = []
    /// Seeds the random orders, so a failure is reproducible.
    public var seed: UInt64 = 0x5EED
    /// How many random decodes to run.
    public var randomDecodes = 60
    /// Extra frames a seek may decode, for a file with frames a codec can only find out are
    /// incomplete by decoding them (a GIF frame whose data stops early): the seek that finds
    /// one out decodes the frames before it again. 0 for every well-formed file.
    public var discoveryAllowance = 0

    /// A contract over the sources `makeSource` makes.
    public init(makeSource: @escaping () throws -> any FrameSource) {
        self.makeSource = makeSource
    }

    /// A contract over a file: sources from `coder`, and `cuts` truncated copies of the file
    /// (cut at evenly spread offsets past its first 32 bytes).
    public init(coder: any AnimatedImageCoder, data: Data, options: DecodingOptions = .default, cuts: Int = 6) {
        self.init { try coder.makeFrameSource(data: data, options: options) }
        guard data.count > 64 else { return }
        for k in 1...max(1, cuts) {
            let cut = 32 + (data.count - 33) * k / (cuts + 1)
            let prefix = data.prefix(cut)
            truncations.append(
                (
                    name: "cut at \(cut) of \(data.count) bytes",
                    make: {
                        try coder.makeFrameSource(data: Data(prefix), options: options)
                    }
                ))
        }
    }

    /// Everything the source does that breaks the contract.
    public func violations() -> [String] {
        var problems: [String] = []
        do {
            try check(&problems)
        } catch {
            problems.append("unexpected error: \(error)")
        }
        return problems
    }

    private func check(_ problems: inout [String]) throws {
        let reference = try makeSource()
        let count = reference.info.frameCount
        guard count > 0 else { return problems.append("no frames") }
        var buffer = PixelBuffer()
        var expected: [PixelBuffer] = []
        for i in 0..<count {
            let before = (reference as? any SeekCostReporting)?.decodedFrameCount
            try reference.decodeFrame(at: i, into: &buffer)
            expected.append(buffer)
            if let costed = reference as? any SeekCostReporting, let before, costed.decodedFrameCount - before > 1 {
                problems.append("sequential frame \(i) decoded \(costed.decodedFrameCount - before) frames")
            }
        }
        // A new play after the last frame.
        if try reference.decodeFrame(at: 0) != expected[0] { problems.append("frame 0 differs when a second play starts") }

        try checkRandomOrder(expected, &problems)
        try checkKeptBuffers(expected, &problems)
        checkOutOfRange(try makeSource(), &problems)
        for (name, make) in truncations { checkTruncation(name, make, expected, &problems) }
    }

    private func checkRandomOrder(_ expected: [PixelBuffer], _ problems: inout [String]) throws {
        let source = try makeSource()
        let costed = source as? any SeekCostReporting
        var rng = SplitMix64(seed: seed)
        var buffer = PixelBuffer()
        var storage: UnsafeRawPointer?
        var previous = -1
        var recent: [Int] = []
        // Random steps, then (for up to 16 frames) every seek from every frame followed by
        // the frame after it: playing on after a seek uses what the seek left pending (the
        // canvas a "dispose to previous" saved), which the seek's own frame does not show.
        let n = expected.count
        let pairs = n <= 16 ? (0..<n * n).flatMap { k in [k / n, k % n, (k % n + 1) % n] } : []
        for step in 0..<(randomDecodes + pairs.count) {
            // Mostly jumps, sometimes the next frame or the same one again.
            let i =
                if step >= randomDecodes { pairs[step - randomDecodes] } else {
                    switch rng.next() % 5 {
                    case 0: (previous + 1) % expected.count
                    case 1: max(0, previous)
                    default: Int(rng.next() % UInt64(expected.count))
                    }
                }
            previous = i
            let before = costed?.decodedFrameCount ?? 0
            try source.decodeFrame(at: i, into: &buffer)
            if buffer != expected[i] {
                let kind = step < randomDecodes ? "random step \(step)" : "seek step \(step - randomDecodes)"
                problems.append("frame \(i) decoded at \(kind), after frames \(recent), differs from sequential decoding")
            }
            recent = Array((recent + [i]).suffix(2))
            if let costed {
                let cost = costed.decodedFrameCount - before, bound = i - costed.restartFrame(for: i) + 1 + discoveryAllowance
                if cost > bound {
                    problems.append("seek to frame \(i) decoded \(cost) frames; its restart frame \(costed.restartFrame(for: i)) allows \(bound)")
                }
            }
            let address = buffer.bytes.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            // The first call may hand over storage of the source's own; after that it stays.
            if step > 1, let storage, address != storage { problems.append("the reused buffer changed storage at step \(step) (frame \(i))") }
            if step >= 1 { storage = address }
        }
    }

    private func checkKeptBuffers(_ expected: [PixelBuffer], _ problems: inout [String]) throws {
        let source = try makeSource()
        var buffer = PixelBuffer()
        var kept: [(Int, PixelBuffer)] = []
        for i in expected.indices {
            try source.decodeFrame(at: i, into: &buffer)
            kept.append((i, buffer))
        }
        // Decode again into a buffer of another shape, and into the last kept one's storage.
        var other = PixelBuffer(width: 3, height: 3)
        for i in expected.indices.reversed() {
            try source.decodeFrame(at: i, into: &other)
            if other != expected[i] { problems.append("frame \(i) decoded into a buffer of another shape differs") }
        }
        for i in expected.indices { try source.decodeFrame(at: i, into: &buffer) }
        for (i, frame) in kept where frame != expected[i] {
            problems.append("a kept frame \(i) changed when later frames were decoded")
        }
    }

    private func checkOutOfRange(_ source: any FrameSource, _ problems: inout [String]) {
        let count = source.info.frameCount
        let pastEnd = source.info.truncation ?? .frameOutOfRange(index: count, frameCount: count)
        for (index, wanted) in [
            (count, pastEnd), (count + 7, source.info.truncation ?? .frameOutOfRange(index: count + 7, frameCount: count)),
            (-1, .frameOutOfRange(index: -1, frameCount: count)),
        ] {
            let error = Self.error { _ = try source.decodeFrame(at: index) }
            if error != wanted { problems.append("frame \(index) threw \(String(describing: error)), not \(wanted)") }
        }
    }

    private func checkTruncation(
        _ name: String, _ make: () throws -> any FrameSource, _ expected: [PixelBuffer],
        _ problems: inout [String]
    ) {
        let source: any FrameSource
        do {
            source = try make()
        } catch let error as AnimatedImageError {
            // Nothing complete: the typed truncation (or too few bytes to tell).
            switch error {
            case .truncated(_, 0, _), .insufficientData: return
            default: return problems.append("\(name): refused with \(error), not .truncated(completeFrames: 0)")
            }
        } catch {
            return problems.append("\(name): refused with an untyped error \(error)")
        }
        let info = source.info
        guard case .truncated(let format, let complete, _)? = info.truncation else {
            return problems.append("\(name): info.truncation is \(String(describing: info.truncation)), not .truncated")
        }
        if format != info.format { problems.append("\(name): the truncation names \(format), the source is \(info.format)") }
        if complete != info.frameCount {
            problems.append("\(name): the truncation says \(complete) complete frames, the source has \(info.frameCount)")
        }
        if info.frameCount > expected.count { problems.append("\(name): \(info.frameCount) frames, more than the whole file's") }
        for i in 0..<min(info.frameCount, expected.count) {
            do {
                if try source.decodeFrame(at: i) != expected[i] { problems.append("\(name): complete frame \(i) differs from the whole file's") }
            } catch {
                problems.append("\(name): complete frame \(i) throws \(error)")
            }
        }
        let error = Self.error { _ = try source.decodeFrame(at: info.frameCount) }
        if error != info.truncation {
            problems.append("\(name): frame \(info.frameCount) threw \(String(describing: error)), not the truncation")
        }
    }

    /// The error `body` throws, as an `AnimatedImageError` (nil when it throws none or another).
    public static func error(_ body: () throws -> Void) -> AnimatedImageError? {
        do {
            try body()
            return nil
        } catch let error as AnimatedImageError {
            return error
        } catch {
            return nil
        }
    }
}
