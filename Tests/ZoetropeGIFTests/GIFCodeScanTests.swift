import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

private typealias F = GIFFixture

/// The index's LZW check reads codes the quick way and questions a code only the exact way
/// (with string lengths, up to the last pixel) can judge. These files put such codes before
/// and after the last pixel, and deep in an image's later sub-blocks, where the exact way
/// must read the image again from its first sub-block.
@Suite struct GIFCodeScanTests {
    /// 600 codes of one literal each, then `tail`: a 600×1 image whose first 600 codes
    /// (3 bits at first, 4 from the fourth entry on, …) take several sub-blocks.
    static func longImage(pixels: Int, tail: [(code: Int, width: Int)]) -> [UInt8] {
        var codes: [(code: Int, width: Int)] = [(4, 3)]
        // After the clear, entries 6, 7, … are added from the second code on; the width
        // grows when the next free entry reaches 8, 16, 32, … (up to 12 bits).
        var next = 6, width = 3
        for k in 0..<600 {
            codes.append((1 + k % 3, width))
            if k > 0, next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        // Re-encode `tail` at the width reached (the caller gives widths of 0 for "current").
        codes += tail.map { ($0.code, $0.width == 0 ? width : $0.width) }
        var w = GIFWriter(width: pixels, height: 1, globalColors: F.palette)
        w.graphicControl(delay: 10)
        w.image(width: pixels, height: 1, indices: [UInt8](repeating: 1, count: pixels))
        w.graphicControl(delay: 10)
        w.image(width: pixels, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes(codes))
        return w.file
    }

    @Test func aLiteralTheTableLacksAfterTheLastPixelIsNoWarning() throws {
        // Code size 3 over a 4-colour table: literals 4–7 have no colour. Clear (8), 1, 1
        // fill the two pixels; the 6 after them is never read.
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, minimumCodeSize: 3, lzwData: GIFWriter.packCodes([(8, 4), (1, 4), (1, 4), (6, 4), (9, 4)]))
        let source = try F.source(w.file)
        #expect(source.info.warnings.isEmpty)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueRed])
    }

    @Test func aLiteralTheTableLacksBeforeTheLastPixelIsTheWarning() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, minimumCodeSize: 3, lzwData: GIFWriter.packCodes([(8, 4), (1, 4), (6, 4), (9, 4)]))
        let source = try F.source(w.file)
        #expect(
            source.info.warnings == [
                "frame 0 uses colour index 6 outside its 4-entry colour table: indices without a colour are drawn opaque black, as Chromium does"
            ])
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueBlack])
    }

    @Test(arguments: [0, 1, 7, 4096])
    func aBadCodeInALaterSubBlockEndsTheAnimationBeforeIt(step: Int) throws {
        // 601 pixels: the code past the next free entry (1000) comes before the last one.
        let bytes = Self.longImage(pixels: 601, tail: [(1000, 0), (5, 0)])
        let info: AnimationInfo
        if step == 0 {
            info = try F.source(bytes).info
        } else {
            let session = GIFCoder().makeIncrementalSource(options: .default)
            for start in stride(from: 0, to: bytes.count, by: step) {
                _ = try session.append(bytes[start..<min(bytes.count, start + step)])
            }
            info = try session.finish()
        }
        #expect(info.frameCount == 1)
        #expect(
            info.truncation
                == .invalidData(
                    format: .gif, reason: "frame 1 at offset 77 has LZW code 1000 past the next free table entry 605; the animation ends before it"))
    }

    @Test func theSameCodeAfterTheLastPixelOfALongImageIsNeverRead() throws {
        // 600 pixels: the image is full before the 1000 comes.
        let bytes = Self.longImage(pixels: 600, tail: [(1000, 0), (5, 0)])
        let source = try F.source(bytes)
        #expect(source.info.frameCount == 2)
        #expect(source.info.truncation == nil)
        let pixels = F.pixels(try source.decodeFrame(at: 1))
        #expect(pixels.count == 600)
        #expect(pixels[0] == F.opaqueRed && pixels[1] == F.opaqueGreen && pixels[2] == F.opaqueBlue && pixels[599] == F.opaqueBlue)
    }
}

/// The scan against a reference written from the rules alone (every code with its string
/// length, up to the last pixel), on random code streams: mostly valid codes with clears,
/// literals outside the table, codes past the next free entry, and pieces after the last
/// pixel, cut into sub-blocks of random sizes.
@Suite struct GIFCodeScanReferenceTests {
    /// What the exact rules say about a code stream.
    static func reference(
        _ codes: [Int], minimumCodeSize: Int, pixelCount: Int, transparent: Int,
        colorCount: Int
    ) -> (bad: [Int]?, missing: Int?) {
        let clear = 1 << minimumCodeSize
        var lengths = [Int](repeating: 1, count: 4096)
        var next = clear + 2, previous = -1, produced = 0, highest = -1
        for code in codes {
            if code == clear {
                next = clear + 2
                previous = -1
                continue
            }
            if code == clear + 1 { break }
            let length: Int
            if code < clear {
                length = 1
                if code != transparent { highest = max(highest, code) }
            } else if previous >= 0, code < next {
                length = lengths[code]
            } else if previous >= 0, code == next, next < 4096 {
                length = lengths[previous] + 1
            } else {
                return ([code, next], highest >= colorCount ? highest : nil)
            }
            if previous >= 0, next < 4096 {
                lengths[next] = lengths[previous] + 1
                next += 1
            }
            previous = code
            produced += length
            if produced >= pixelCount { break }
        }
        return (nil, highest >= colorCount ? highest : nil)
    }

    /// Random codes with the widths a decoder reads them at, packed and cut into sub-blocks.
    static func stream(
        minimumCodeSize: Int, colorCount: Int, count: Int,
        using rng: inout SplitMix64
    ) -> (codes: [Int], data: [UInt8]) {
        let clear = 1 << minimumCodeSize
        var codes: [Int] = [], packed: [(code: Int, width: Int)] = []
        var next = clear + 2, width = minimumCodeSize + 1, previous = false
        func emit(_ code: Int) {
            codes.append(code)
            packed.append((code, width))
        }
        emit(clear)
        for _ in 0..<count {
            let roll = Int.random(in: 0..<1000, using: &rng)
            let code: Int
            if roll < 3 {
                code = clear
            } else if !previous, roll < 30 {
                code = next  // the previous string plus its first pixel, with no previous string
            } else if roll < 5 {
                code = Int.random(in: min(next, 4095)...min(next + 40, (1 << width) - 1), using: &rng)  // often past next
            } else if roll < 9 {
                code = Int.random(in: min(colorCount, clear - 1)..<clear, using: &rng)  // maybe missing
            } else if previous, roll < 600 {
                code = Int.random(in: (clear + 2)...min(next, 4095), using: &rng)
            } else {
                code = Int.random(in: 0..<max(1, min(colorCount, clear)), using: &rng)
            }
            emit(code)
            if code == clear {
                next = clear + 2
                width = minimumCodeSize + 1
                previous = false
                continue
            }
            if code > next || (code == next && !previous) { continue }  // the stream is broken from here on
            if previous, next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
            previous = true
        }
        emit(clear + 1)
        let bytes = GIFWriter.packCodes(packed)
        var data: [UInt8] = [], start = 0
        while start < bytes.count {
            let size = min(bytes.count - start, Int.random(in: 1...255, using: &rng))
            data.append(UInt8(size))
            data += bytes[start..<(start + size)]
            start += size
        }
        data.append(0)
        return (codes, data)
    }

    @Test func randomStreamsAgreeWithTheReference() {
        var rng = SplitMix64(seed: 0x5CA7)
        var scan = GIFCodeScan()
        var questioned = 0, bad = 0, missing = 0
        for round in 0..<3000 {
            let minimumCodeSize = Int.random(in: 2...8, using: &rng)
            let clear = 1 << minimumCodeSize
            let colorCount = [clear, clear / 2, 3, 256, 0][round % 5]
            let transparent = round % 3 == 0 ? Int.random(in: 0..<clear, using: &rng) : -1
            let (codes, data) = Self.stream(
                minimumCodeSize: minimumCodeSize, colorCount: colorCount,
                count: Int.random(in: 1...3000, using: &rng), using: &rng)
            let pixelCount = Int.random(in: 1...40_000, using: &rng)
            let expected = Self.reference(
                codes, minimumCodeSize: minimumCodeSize, pixelCount: pixelCount,
                transparent: transparent, colorCount: colorCount)
            data.withUnsafeBytes { bytes in
                // As the whole-file index does: every sub-block, then again if a code was questioned.
                scan.begin(
                    minimumCodeSize: minimumCodeSize, pixelCount: pixelCount,
                    transparentIndex: transparent < 0 ? nil : transparent, colorCount: colorCount)
                scan.feedSubBlocks(bytes, from: 0, upTo: bytes.count)
                if scan.needsExactScan {
                    questioned += 1
                    scan.rescanExactly(bytes, dataStart: 0, end: bytes.count)
                }
                let result = scan.result
                #expect(result.badCode.map { [$0.code, $0.nextFree] } == expected.bad, "round \(round)")
                let found = result.highestIndex >= colorCount ? result.highestIndex : nil
                #expect(found == expected.missing, "round \(round)")
            }
            if expected.bad != nil { bad += 1 }
            if expected.missing != nil { missing += 1 }
        }
        // The streams exercise both findings and both ways.
        #expect(questioned > 500 && bad > 200 && missing > 200, "\(questioned) \(bad) \(missing)")
        #expect(questioned < 3000)
    }
}
