/// Builds full-canvas frames from frame rectangles: dispose, then blend.
///
/// The canvas is kept in straight alpha, the form every supported format stores; a
/// premultiplied copy is made only when the caller asks for one (`copyCanvas`). Each
/// frame goes through `beginFrame` (which applies the previous frame's disposal and saves
/// what "dispose to previous" will need), a draw, and is then visible in `canvas`.
public struct Compositor: Sendable {
    /// The composited canvas, straight alpha.
    public private(set) var canvas: PixelBuffer
    private var pendingRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var pendingDispose = DisposeMode.none
    private var saved: [UInt8] = []
    /// Converts the canvas's values (the file's colour space) to the output's on every copy
    /// out (`copyCanvas`, and `CanvasRendering`'s direct paths); nil (the default, and any
    /// sRGB or untagged file) copies the values unchanged. The canvas itself keeps the
    /// file's values: frames composite in the space the file was authored in.
    public var colorTransform: (any ColorTransform)?

    /// A transparent canvas. The caller checks `Limits` before creating one.
    public init(size: PixelSize) {
        canvas = PixelBuffer(width: size.width, height: size.height)
    }

    /// A transparent canvas whose copies out are converted by `colorTransform`.
    public init(size: PixelSize, colorTransform: (any ColorTransform)?) {
        canvas = PixelBuffer(width: size.width, height: size.height)
        self.colorTransform = colorTransform
    }

    /// The canvas bounds.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height) }

    /// Bytes held: the canvas plus the saved region for "dispose to previous".
    public var byteCount: Int { canvas.byteCount + saved.capacity }

    /// Back to a fully transparent canvas with nothing pending: the start of a play.
    public mutating func reset() {
        canvas.clearToTransparent()
        pendingRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        pendingDispose = .none
    }

    /// Applies the previous frame's disposal and records this frame's. Returns the part of
    /// `rect` inside the canvas, where the frame may draw.
    @discardableResult
    public mutating func beginFrame(rect: PixelRect, dispose: DisposeMode) -> PixelRect {
        applyPendingDisposal()
        let clipped = rect.intersection(bounds)
        pendingRect = clipped
        pendingDispose = dispose
        if dispose == .previous, !clipped.isEmpty {
            let rowBytes = clipped.width * 4
            if saved.count < rowBytes * clipped.height {
                saved = [UInt8](repeating: 0, count: rowBytes * clipped.height)
            }
            canvas.bytes.withUnsafeBytes { src in
                saved.withUnsafeMutableBytes { dst in
                    for row in 0..<clipped.height {
                        let s = (clipped.y + row) * canvas.bytesPerRow + clipped.x * 4
                        (dst.baseAddress! + row * rowBytes).copyMemory(from: src.baseAddress! + s, byteCount: rowBytes)
                    }
                }
            }
        }
        return clipped
    }

    /// Draws straight-alpha RGBA8 pixels whose top-left lands at (`rect.x`, `rect.y`);
    /// `pixels` holds `rect.height` rows of `rect.width` pixels at `bytesPerRow`. Parts
    /// outside the canvas are clipped.
    public mutating func draw(_ pixels: UnsafeRawBufferPointer, bytesPerRow: Int, rect: PixelRect, blend: BlendMode) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return }
        precondition(
            bytesPerRow >= rect.width * 4 && pixels.count >= bytesPerRow * (rect.height - 1) + rect.width * 4,
            "frame pixels smaller than their rectangle")
        let stride = canvas.bytesPerRow
        let dx = clipped.x - rect.x, dy = clipped.y - rect.y
        canvas.bytes.withUnsafeMutableBytes { dstRaw in
            let dst = dstRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let src = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<clipped.height {
                let d = dst + (clipped.y + row) * stride + clipped.x * 4
                let s = src + (dy + row) * bytesPerRow + dx * 4
                if blend == .source {
                    d.update(from: s, count: clipped.width * 4)
                } else {
                    Compositor.blendOverRow(d, s, count: clipped.width)
                }
            }
        }
    }

    /// Direct access to the canvas, for decoders that draw their own way (for example
    /// GIF's palette indices) between `beginFrame` and the next frame.
    public mutating func withCanvas<R>(_ body: (inout PixelBuffer) throws -> R) rethrows -> R {
        try body(&canvas)
    }

    /// Copies the canvas into `output` in `format`'s alpha mode, downsampling when
    /// `size` is smaller than the canvas, and converting with `colorTransform` when there is
    /// one. `output` is reshaped (reusing its storage).
    public func copyCanvas(into output: inout PixelBuffer, size: PixelSize? = nil, format: PixelFormat) {
        canvas.copy(into: &output, size: size ?? canvas.size, format: format, colorTransform: colorTransform)
    }

    private mutating func applyPendingDisposal() {
        let r = pendingRect
        guard !r.isEmpty else { return }
        let stride = canvas.bytesPerRow
        switch pendingDispose {
        case .none:
            break
        case .background:
            canvas.bytes.withUnsafeMutableBytes { raw in
                for row in 0..<r.height {
                    (raw.baseAddress! + (r.y + row) * stride + r.x * 4).initializeMemory(as: UInt8.self, repeating: 0, count: r.width * 4)
                }
            }
        case .previous:
            let rowBytes = r.width * 4
            canvas.bytes.withUnsafeMutableBytes { dst in
                saved.withUnsafeBytes { src in
                    for row in 0..<r.height {
                        (dst.baseAddress! + (r.y + row) * stride + r.x * 4).copyMemory(from: src.baseAddress! + row * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
        pendingRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        pendingDispose = .none
    }

    /// Straight-alpha "over": αo = αs + αd(1−αs); Co = (Cs·αs + Cd·αd(1−αs)) / αo,
    /// in integers scaled by 255 and rounded to nearest.
    @inline(__always)
    static func blendOverRow(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let o = i * 4
            let sa = UInt32(s[o + 3])
            if sa == 255 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = 255
                continue
            }
            if sa == 0 { continue }
            let da = UInt32(d[o + 3])
            if da == 0 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = s[o + 3]
                continue
            }
            let t = da * (255 - sa)  // αd(1−αs), scaled by 255²
            let a255 = sa * 255 + t  // αo scaled by 255²
            let half = a255 / 2
            for c in 0..<3 {
                let v = (UInt32(s[o + c]) * sa * 255 + UInt32(d[o + c]) * t + half) / a255
                d[o + c] = UInt8(truncatingIfNeeded: v)
            }
            d[o + 3] = UInt8(truncatingIfNeeded: (a255 + 127) / 255)
        }
    }
}
