import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeColor

/// Records the rows each `convert` call covers, and inverts the colour channels (its own
/// inverse, so a row converted twice would show).
///
/// @unchecked Sendable: `origin` is only subtracted from, never read through; the record is
/// behind a lock.
private final class RowRecorder: ColorTransform, @unchecked Sendable {
    let calls = Locked<[Range<Int>]>([])
    let origin: UnsafeMutableRawPointer
    let bytesPerRow: Int

    init(origin: UnsafeMutableRawPointer, bytesPerRow: Int) {
        self.origin = origin
        self.bytesPerRow = bytesPerRow
    }

    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        let top = (pixels - origin) / bytesPerRow
        calls.withLock { $0.append(top..<top + height) }
        for y in 0..<height {
            let row = (pixels + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width * 4 where x % 4 != 3 { row[x] = 255 - row[x] }
        }
    }
}

@Suite("Colour conversion in bands")
struct BandedColorTransformTests {
    /// `width`×`height` RGBA pixels with 12 bytes of padding per row, made from `seed`.
    private func frame(_ width: Int, _ height: Int, seed: UInt64) -> (bytes: [UInt8], bytesPerRow: Int) {
        let bytesPerRow = width * 4 + 12
        var state = seed
        let bytes = (0..<bytesPerRow * height).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return (bytes, bytesPerRow)
    }

    @Test(
        "A big frame is converted in one band per thread, every row once; a small one in one pass",
        arguments: [(300, 301, 3, 3), (300, 301, 1, 1), (1000, 70, 2, 2), (255, 257, 2, 1), (65_536, 2, 8, 2)])
    func bands(width: Int, height: Int, threads: Int, expectedBands: Int) {
        var (bytes, bytesPerRow) = frame(width, height, seed: 7)
        let original = bytes
        bytes.withUnsafeMutableBytes { raw in
            let recorder = RowRecorder(origin: raw.baseAddress!, bytesPerRow: bytesPerRow)
            let banded = BandedColorTransform(recorder, tuning: .standard, threads: threads)
            banded.convert(raw.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow)
            let rows = recorder.calls.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
            #expect(rows.count == expectedBands)
            #expect(rows.first?.lowerBound == 0 && rows.last?.upperBound == height)
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }
        // Every colour byte inverted once, alpha and padding untouched.
        for y in 0..<height {
            for x in 0..<bytesPerRow {
                let i = y * bytesPerRow + x
                let converted = x < width * 4 && x % 4 != 3
                if bytes[i] != (converted ? 255 - original[i] : original[i]) {
                    Issue.record("byte \(x) of row \(y)")
                    return
                }
            }
        }
    }

    @Test("The parallel-color path switched off converts in one pass")
    func switchedOff() {
        var (bytes, bytesPerRow) = frame(400, 400, seed: 3)
        bytes.withUnsafeMutableBytes { raw in
            let recorder = RowRecorder(origin: raw.baseAddress!, bytesPerRow: bytesPerRow)
            let banded = BandedColorTransform(recorder, tuning: DecoderTuning.standard.without(.parallelColor), threads: 4)
            banded.convert(raw.baseAddress!, width: 400, height: 400, bytesPerRow: bytesPerRow)
            #expect(recorder.calls.withLock { $0 } == [0..<400])
        }
    }

    @Test("A session's lcms2 transform gives the same bytes in bands as in one pass")
    func sameAsOnePass() throws {
        let color = ColorInfo(iccProfile: ICCProfile(data: TestProfiles.adobeRGB))
        let (original, bytesPerRow) = frame(512, 300, seed: 11)
        var single = original
        let base = try #require(try ColorManagement.transform(for: color))
        single.withUnsafeMutableBytes { base.convert($0.baseAddress!, width: 512, height: 300, bytesPerRow: bytesPerRow) }
        for threads in [2, 3, 5] {
            var banded = original
            let transform = try #require(ColorManagement.prepare(color, options: DecodingOptions(threadCount: threads)).transform)
            banded.withUnsafeMutableBytes { transform.convert($0.baseAddress!, width: 512, height: 300, bytesPerRow: bytesPerRow) }
            #expect(banded == single, "\(threads) threads")
        }
        #expect(single != original)
    }
}
