import Dispatch
import Zoetrope

/// The bands of one decode: each converted on a worker (or at once, on one thread).
///
/// @unchecked Sendable: `pixels` is written by the decoder only in rows no band has been
/// handed for yet, and each band's rows are converted by one worker only; `decode` waits
/// for every band before it returns, while the caller's buffer is alive.
final class JPEGBandConversion: @unchecked Sendable {
    let transform: any ColorTransform
    let pixels: UnsafeMutableRawPointer
    let width: Int
    let bytesPerRow: Int
    let parallel: Bool
    private let group = DispatchGroup()

    init(transform: any ColorTransform, pixels: UnsafeMutableRawPointer, width: Int, bytesPerRow: Int, parallel: Bool) {
        self.transform = transform
        self.pixels = pixels
        self.width = width
        self.bytesPerRow = bytesPerRow
        self.parallel = parallel
    }

    func rowsReady(_ first: Int, _ count: Int) {
        guard parallel else {
            convert(first, count)
            return
        }
        DispatchQueue.global().async(group: group) { self.convert(first, count) }
    }

    private func convert(_ first: Int, _ count: Int) {
        transform.convert(pixels + first * bytesPerRow, width: width, height: count, bytesPerRow: bytesPerRow)
    }

    func wait() { group.wait() }
}
