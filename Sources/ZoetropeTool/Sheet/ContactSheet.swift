import Zoetrope

/// A contact sheet: every frame of an animation as a thumbnail in a grid, labelled with
/// its index and display duration, on one opaque image.
///
/// Frames are added in order as they decode, so only the sheet and one frame are held.
/// Transparent areas show a checkerboard; a duration the delay policy changed is labelled
/// in orange with a `*`, so a reader sees at a glance which delays a player will clamp.
struct ContactSheet {
    static let padding = 8
    static let labelGap = 3
    private static let background: (UInt8, UInt8, UInt8, UInt8) = (30, 32, 38, 255)
    private static let ink: (UInt8, UInt8, UInt8, UInt8) = (235, 235, 235, 255)
    private static let clampedInk: (UInt8, UInt8, UInt8, UInt8) = (255, 160, 60, 255)

    /// The finished image (opaque RGBA8, straight alpha).
    private(set) var image: PixelBuffer
    let thumbSize: PixelSize
    let columns: Int
    let cellSize: PixelSize
    private let upscale: Int
    private let headerHeight: Int
    private var thumb = PixelBuffer()

    /// Lays out a sheet for `info`'s frames under a title line, checking the sheet's size
    /// against `limits` before allocating it.
    init(info: AnimationInfo, title: String, limits: Limits = .default) throws {
        let n = max(1, info.frameCount)
        let canvas = info.canvasSize
        // Up to 100 frames get 160-pixel thumbnails; longer animations get smaller ones.
        let maxEdge = n <= 100 ? 160 : max(48, Int(160 * (100 / Double(n)).squareRoot()))
        let fitted = DecodingOptions(targetSize: PixelSize(width: maxEdge, height: maxEdge)).outputSize(forCanvas: canvas)
        // Tiny images are enlarged by a whole factor (nearest neighbour) so their pixels stay visible.
        let longest = max(1, max(canvas.width, canvas.height))
        upscale = longest < 64 ? max(1, min(16, 64 / longest)) : 1
        thumbSize = upscale > 1 ? PixelSize(width: canvas.width * upscale, height: canvas.height * upscale) : fitted

        let widestLabel = BitmapFont.width(of: Self.label(index: n - 1, duration: .seconds(10), clamped: true))
        cellSize = PixelSize(
            width: max(thumbSize.width, widestLabel),
            height: thumbSize.height + Self.labelGap + BitmapFont.glyphHeight)
        let p = Self.padding
        let ideal = (Double(n) * Double(cellSize.height + p) / Double(cellSize.width + p)).squareRoot().rounded(.up)
        columns = min(n, max(1, Int(ideal)))
        let rows = (n + columns - 1) / columns
        headerHeight = BitmapFont.glyphHeight + 2 * p
        let width = max(p + columns * (cellSize.width + p), BitmapFont.width(of: title) + 2 * p)
        let height = headerHeight + rows * (cellSize.height + p)
        try limits.checkCanvases(PixelSize(width: width, height: height), count: 1, format: info.format)

        image = PixelBuffer(width: width, height: height)
        image.fill(PixelRect(x: 0, y: 0, width: width, height: height), with: Self.background)
        BitmapFont.draw(title, into: &image, x: p, y: p, color: Self.ink)
    }

    /// The label under a frame: "#12 100ms", with a `*` when the policy changed the raw delay.
    static func label(index: Int, duration: FrameDuration, clamped: Bool) -> String {
        "#\(index) \(Formatting.format1(duration.milliseconds))ms" + (clamped ? "*" : "")
    }

    /// Where frame `index`'s thumbnail goes.
    func thumbnailOrigin(index: Int) -> (x: Int, y: Int) {
        let p = Self.padding
        return (p + (index % columns) * (cellSize.width + p), headerHeight + (index / columns) * (cellSize.height + p))
    }

    /// Draws frame `index` (a full canvas, straight alpha) and its label into its cell.
    mutating func add(frame: PixelBuffer, index: Int, rawDuration: FrameDuration, policy: DelayPolicy = .default) {
        if upscale > 1 {
            frame.copy(into: &thumb, size: frame.size, format: .rgba8)
        } else {
            frame.copy(into: &thumb, size: thumbSize, format: .rgba8)
        }
        let (x, y) = thumbnailOrigin(index: index)
        composite(thumb, scale: upscale, atX: x, y: y)
        let display = policy.displayDuration(for: rawDuration)
        let clamped = display != rawDuration
        BitmapFont.draw(
            Self.label(index: index, duration: display, clamped: clamped), into: &image,
            x: x, y: y + thumbSize.height + Self.labelGap, color: clamped ? Self.clampedInk : Self.ink)
    }

    /// Draws `src`, enlarged `scale` times, over a checkerboard at (x, y).
    private mutating func composite(_ src: PixelBuffer, scale: Int, atX x0: Int, y y0: Int) {
        let w = min(src.width * scale, image.width - x0), h = min(src.height * scale, image.height - y0)
        guard w > 0, h > 0 else { return }
        let dstStride = image.bytesPerRow, srcStride = src.bytesPerRow
        src.bytes.withUnsafeBytes { sRaw in
            image.bytes.withUnsafeMutableBytes { dRaw in
                let s = sRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let d = dRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<h {
                    let srow = s + (y / scale) * srcStride
                    let drow = d + (y0 + y) * dstStride + x0 * 4
                    for x in 0..<w {
                        let sp = srow + (x / scale) * 4
                        let check: UInt32 = ((x / 8) + (y / 8)) % 2 == 0 ? 200 : 150
                        let a = UInt32(sp[3]), ia = 255 - a
                        let dp = drow + x * 4
                        dp[0] = UInt8((UInt32(sp[0]) * a + check * ia + 127) / 255)
                        dp[1] = UInt8((UInt32(sp[1]) * a + check * ia + 127) / 255)
                        dp[2] = UInt8((UInt32(sp[2]) * a + check * ia + 127) / 255)
                        dp[3] = 255
                    }
                }
            }
        }
    }
}
