import Dispatch
import Zoetrope

/// A transform that converts a big frame in horizontal bands on several threads at once
/// (`DecoderTuning.colorBands(forPixels:rows:threads:availableCores:)`), each band by `base`;
/// a small frame takes one pass on the caller's thread. The result is the same either way:
/// every pixel is converted on its own.
final class BandedColorTransform: ColorTransform {
    let base: any ColorTransform
    private let tuning: DecoderTuning
    private let threads: Int?

    init(_ base: any ColorTransform, tuning: DecoderTuning, threads: Int?) {
        self.base = base
        self.tuning = tuning
        self.threads = threads
    }

    var retainedByteCount: Int { base.retainedByteCount }

    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        inBands(pixels, width: width, height: height, bytesPerRow: bytesPerRow, deep: false)
    }

    func convert16(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        inBands(pixels, width: width, height: height, bytesPerRow: bytesPerRow, deep: true)
    }

    private func inBands(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, deep: Bool) {
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        let bands = overflow ? 1 : tuning.colorBands(forPixels: pixelCount, rows: height, threads: threads)
        let frame = BandedFrame(pixels: pixels, base: base)
        let rows = (height + bands - 1) / bands
        let convertBand: @Sendable (Int, Int) -> Void = { top, count in
            let start = frame.pixels + top * bytesPerRow
            if deep {
                frame.base.convert16(start, width: width, height: count, bytesPerRow: bytesPerRow)
            } else {
                frame.base.convert(start, width: width, height: count, bytesPerRow: bytesPerRow)
            }
        }
        guard bands > 1 else {
            convertBand(0, height)
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let top = band * rows
            let count = min(rows, height - top)
            guard count > 0 else { return }
            convertBand(top, count)
        }
    }
}

/// The frame the bands of one `convert` share.
///
/// @unchecked Sendable: `concurrentPerform` returns only after every band has run, while the
/// caller's pixels are alive; each band writes only its own rows.
private struct BandedFrame: @unchecked Sendable {
    let pixels: UnsafeMutableRawPointer
    let base: any ColorTransform
}
