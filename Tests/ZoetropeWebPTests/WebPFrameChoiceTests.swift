import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// The writer's own frame choices (blend or not, dispose or not, merging) and its output
/// path (spilled to a temporary file, renamed into place), each checked on the file written.
@Suite struct WebPFrameChoiceTests {
    static let size = PixelSize(width: 64, height: 48)

    /// An opaque canvas of grain (every pixel its own colour) from `seed`.
    static func grain(seed: UInt64) -> PixelBuffer {
        var rng = SplitMix64(seed: seed)
        var b = PixelBuffer(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let r = rng.next()
                b.setPixel(x: x, y: y, [UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: r >> 8), UInt8(truncatingIfNeeded: r >> 16), 255])
            }
        }
        return b
    }

    static func frames(_ canvases: [PixelBuffer], ms: Int64 = 50) -> [EncodingFrame] {
        canvases.map { EncodingFrame(pixels: $0, duration: .milliseconds(ms)) }
    }

    @Test func aMostlyChangedRectangleIsStoredUnblendedAndASmallChangeBlended() throws {
        let a = Self.grain(seed: 1)
        var mostly = Self.grain(seed: 2)  // every pixel but the first row changes: 2 % unchanged
        var small = mostly  // then one 8×8 block changes inside a full-width band
        for x in 0..<Self.size.width {
            mostly.setPixel(x: x, y: 0, a.pixel(x: x, y: 0))
            small.setPixel(x: x, y: 0, a.pixel(x: x, y: 0))
        }
        for y in 20..<28 { for x in 30..<38 { small.setPixel(x: x, y: y, [9, 9, 9, 255]) } }
        small.setPixel(x: 0, y: 20, [1, 2, 3, 255])
        small.setPixel(x: 63, y: 27, [1, 2, 3, 255])  // the rectangle spans the width: 8 rows, mostly unchanged
        let canvases = [a, mostly, small]
        // A fourth frame equal to the third merges into it: the blended frame's rewrite of
        // unchanged pixels did not leak into the canvas the writer compares with.
        let file = try WebPEncoder().encode(Self.frames(canvases + [small]), canvasSize: Self.size, options: EncodingOptions())
        let index = try WebPIndex(data: file, limits: .default)
        #expect(index.frames.map(\.durationMs) == [50, 50, 100])
        #expect(index.frames.map(\.blend) == [.source, .source, .over])
        #expect(index.frames[2].rect == PixelRect(x: 0, y: 20, width: 64, height: 8))
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        for i in 0..<3 { #expect(try source.decodeFrame(at: i) == canvases[i], "frame \(i)") }
    }

    @Test func theShapeOfAFrameGoneAgainIsDisposedToTheBackground() throws {
        // A square on a transparent canvas that moves far away: clearing the old square
        // leaves only the new one to draw.
        func square(at x0: Int) -> PixelBuffer {
            var b = PixelBuffer(width: Self.size.width, height: Self.size.height)
            for y in 10..<20 { for x in x0..<(x0 + 10) { b.setPixel(x: x, y: y, [200, 40, UInt8(x), 255]) } }
            return b
        }
        let canvases = [square(at: 2), square(at: 50)]
        let file = try WebPEncoder().encode(Self.frames(canvases), canvasSize: Self.size, options: EncodingOptions())
        let index = try WebPIndex(data: file, limits: .default)
        #expect(index.frames.map(\.dispose) == [.background, .none])
        #expect(index.frames.map(\.rect) == [PixelRect(x: 2, y: 10, width: 10, height: 10), PixelRect(x: 50, y: 10, width: 10, height: 10)])
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        for i in 0..<2 { #expect(try source.decodeFrame(at: i) == canvases[i], "frame \(i)") }
    }

    @Test func framesTooLongToMergeStayTwoFrames() throws {
        let a = Self.grain(seed: 3)
        let longest: Int64 = 0xFF_FFFF
        let file = try WebPEncoder().encode(Self.frames([a, a, a], ms: longest), canvasSize: Self.size, options: EncodingOptions())
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.frameDurations == [.milliseconds(longest), .milliseconds(longest), .milliseconds(longest)])
        for i in 0..<3 { #expect(try source.decodeFrame(at: i) == a) }
    }

    @Test func aFrameLongerThanWebPStoresIsStoredAsTheLongest() throws {
        let a = Self.grain(seed: 4), b = Self.grain(seed: 5)
        let frames = [
            EncodingFrame(pixels: a, duration: .seconds(20_000)), EncodingFrame(pixels: b, duration: .milliseconds(5)),
        ]
        let file = try WebPEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.frameDurations == [.milliseconds(0xFF_FFFF), .milliseconds(5)])
        #expect(try source.decodeFrame(at: 0) == a && source.decodeFrame(at: 1) == b)
    }

    @Test func finishingToAFileWritesTheSameBytesAsFinish() throws {
        let canvases = (0..<3).map { Self.grain(seed: 10 + UInt64($0)) }
        let data = try WebPEncoder().encode(Self.frames(canvases), canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2)))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webp-finish-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try WebPEncoder().makeWriter(canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2)))
        for f in Self.frames(canvases) { try writer.add(f) }
        try writer.finish(to: url)
        #expect(try Data(contentsOf: url) == data)
        #expect(try WebPCoder().makeFrameSource(data: data, options: .default).info.loopCount == .plays(2))
    }

    @Test func spillBufferMovesPastItsThresholdToATemporaryFileAndRenamesIt() throws {
        let parts: [[UInt8]] = [[1, 2, 3], [4, 5, 6, 7], Array(repeating: 8, count: 20)]
        let header: [UInt8] = [0xA, 0xB]
        let expected = Data(header + parts.joined())
        func spilledFiles() throws -> Set<String> {
            Set(
                try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                    .filter { $0.hasPrefix(".zoetrope-\(ProcessInfo.processInfo.processIdentifier)-") })
        }
        let before = try spilledFiles()

        let inMemory = WebPSpillBuffer(headerSize: 2, threshold: 1000)
        for p in parts { try inMemory.append(p) }
        #expect(try spilledFiles() == before)
        #expect(try inMemory.data(header: header) == expected)

        let spilled = WebPSpillBuffer(headerSize: 2, threshold: 5)
        for p in parts { try spilled.append(p) }
        #expect(spilled.count == 27)
        #expect(try spilledFiles().subtracting(before).count == 1)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try spilled.write(header: header, to: url)
        #expect(try Data(contentsOf: url) == expected)
        #expect(try spilledFiles() == before)

        let read = WebPSpillBuffer(headerSize: 2, threshold: 5)
        for p in parts { try read.append(p) }
        #expect(try read.data(header: header) == expected)
        #expect(try spilledFiles() == before)

        do {  // an abandoned writer leaves no file behind
            let abandoned = WebPSpillBuffer(headerSize: 2, threshold: 5)
            for p in parts { try abandoned.append(p) }
        }
        #expect(try spilledFiles() == before)
    }

    @Test func spillBufferUsesTheDirectoryItIsGiven() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spill-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let buffer = WebPSpillBuffer(headerSize: 1, threshold: 2, directory: dir)
        try buffer.append([1, 2, 3])
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(parts.count == 1 && parts[0].hasPrefix(".zoetrope-") && parts[0].hasSuffix(".part"))
        let out = dir.appendingPathComponent("out.bin")
        try buffer.write(header: [0], to: out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.bin"])
        #expect(try Data(contentsOf: out) == Data([0, 1, 2, 3]))
    }

    @Test func randomEditsRoundTripExactly() throws {
        // Odd canvases, edits of random rectangles with opaque, translucent, transparent
        // (with and without colour) pixels, repeats and returns to earlier frames: every
        // frame must decode as given, whatever blend and disposal the writer picked.
        var rng = SplitMix64(seed: 2026)
        func next(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        for round in 0..<12 {
            let size = PixelSize(width: 3 + next(30), height: 3 + next(20))
            var canvas = PixelBuffer(width: size.width, height: size.height)
            var canvases: [PixelBuffer] = []
            for _ in 0..<7 {
                if !canvases.isEmpty, next(6) == 0 { canvas = canvases[next(canvases.count)] }
                for _ in 0..<(1 + next(3)) {
                    let x0 = next(size.width), y0 = next(size.height)
                    let palette: [[UInt8]] = [
                        [0, 0, 0, 0], [90, 10, 200, 0], [UInt8(next(256)), 40, 80, 255],
                        [200, UInt8(next(256)), 0, UInt8(1 + next(254))], [12, 34, 56, 255],
                    ]
                    for y in y0..<min(size.height, y0 + 1 + next(size.height)) {
                        for x in x0..<min(size.width, x0 + 1 + next(size.width)) {
                            canvas.setPixel(x: x, y: y, next(4) == 0 ? palette[next(palette.count)] : palette[round % palette.count])
                        }
                    }
                }
                canvases.append(canvas)
            }
            let file = try WebPEncoder().encode(Self.frames(canvases), canvasSize: size, options: EncodingOptions())
            let source = try WebPCoder().makeFrameSource(data: file, options: .default)
            var shown: [PixelBuffer] = []
            for i in 0..<source.info.frameCount { shown.append(try source.decodeFrame(at: i)) }
            // Merged frames (a canvas equal to the one before) show once, for longer.
            var expected: [PixelBuffer] = []
            for c in canvases where expected.last != c { expected.append(c) }
            #expect(shown == expected, "round \(round), \(size)")
        }
    }
}
