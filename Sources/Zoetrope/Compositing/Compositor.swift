/// Builds full-canvas frames from frame rectangles: dispose, then blend.
///
/// The canvas is kept in straight alpha, the form every supported format stores; a
/// premultiplied copy is made only when the caller asks for one (`copyCanvas`). Each
/// frame goes through `beginFrame` (which applies the previous frame's disposal and saves
/// what "dispose to previous" will need), a draw, and is then visible in `canvas`.
///
/// A compositor made with `holdsDrawnAreaOnly` keeps pixels only for `region`, the
/// rectangle its frames have drawn in (grown as they reach further): outside it the canvas
/// is transparent, as every format's canvas starts and as disposal leaves it, so a file whose
/// frames touch one corner of a huge screen costs that corner. Copies out (`copyCanvas`)
/// give the same pixels as a whole canvas would.
package struct Compositor: Sendable {
    /// The composited pixels of `region`, straight alpha at `channelDepth`: the whole canvas
    /// unless the compositor holds the drawn area only.
    package private(set) var canvas: PixelBuffer
    /// The part of the canvas `canvas` holds, in canvas coordinates; transparent outside.
    package private(set) var region: PixelRect
    /// The canvas size, whatever part of it is held.
    package let canvasSize: PixelSize
    /// Bits per channel of the canvas and of the pixels `draw` takes: 8 unless made for
    /// deep pixels.
    package let channelDepth: ChannelDepth
    private let growsToFrames: Bool
    /// What `reserve` asked for before any pixel was allocated.
    private var planned = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var pendingRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var pendingDispose = DisposeMode.none
    private var saved: [UInt8] = []
    /// Converts the canvas's values (the file's colour space) to the output's on every copy
    /// out (`copyCanvas`, and `CanvasRendering`'s direct paths); nil (the default, and any
    /// sRGB or untagged file) copies the values unchanged. The canvas itself keeps the
    /// file's values: frames composite in the space the file was authored in.
    package var colorTransform: (any ColorTransform)?

    /// A transparent canvas. The caller checks `Limits` before creating one.
    package init(size: PixelSize) {
        self.init(size: size, colorTransform: nil, holdsDrawnAreaOnly: false)
    }

    /// A transparent canvas whose copies out are converted by `colorTransform`.
    package init(size: PixelSize, colorTransform: (any ColorTransform)?) {
        self.init(size: size, colorTransform: colorTransform, holdsDrawnAreaOnly: false)
    }

    /// A transparent canvas of `size` that, when `holdsDrawnAreaOnly`, allocates pixels only
    /// where frames draw (`region`, empty until the first frame or `reserve`), with
    /// `channelDepth` bits per channel.
    package init(
        size: PixelSize, colorTransform: (any ColorTransform)? = nil, holdsDrawnAreaOnly: Bool, channelDepth: ChannelDepth = .eight
    ) {
        canvasSize = size
        growsToFrames = holdsDrawnAreaOnly
        self.channelDepth = channelDepth
        region = PixelRect(x: 0, y: 0, width: holdsDrawnAreaOnly ? 0 : size.width, height: holdsDrawnAreaOnly ? 0 : size.height)
        canvas = PixelBuffer(width: region.width, height: region.height, format: PixelFormat(alphaMode: .straight, channelDepth: channelDepth))
        self.colorTransform = colorTransform
    }

    /// Bytes per canvas pixel: 4 or 8.
    private var bytesPerPixel: Int { channelDepth.bytesPerPixel }

    /// The canvas bounds.
    package var bounds: PixelRect { PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height) }

    /// Whether `canvas` is the whole canvas.
    package var holdsWholeCanvas: Bool { region == bounds }

    /// Bytes held: the pixels of `region` plus the saved region for "dispose to previous".
    package var byteCount: Int { canvas.byteCount + saved.capacity }

    /// Back to a fully transparent canvas with nothing pending: the start of a play.
    package mutating func reset() {
        canvas.clearToTransparent()
        pendingRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        pendingDispose = .none
    }

    /// Makes `region` cover `rect` (clipped to the canvas) and nothing more than it and what
    /// it held, for a caller that knows where every frame will draw and so allocates once.
    /// Before any pixel is allocated this only plans: the first frame drawn allocates the plan
    /// and its own rectangle at once, and a source whose frames all decode straight into the
    /// caller's buffer never allocates. A whole-canvas compositor holds `rect` already.
    package mutating func reserve(_ rect: PixelRect) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty, !region.contains(clipped) else { return }
        if region.isEmpty {
            planned = planned.union(clipped)
        } else {
            grow(to: region.union(clipped))
        }
    }

    /// Frees the pixels of a compositor that holds the drawn area only, keeping `region` as
    /// the plan for the next frame drawn: the canvas is transparent again, nothing pending.
    /// False, changing nothing, for a whole-canvas compositor.
    @discardableResult
    mutating func releasePixels() -> Bool {
        guard growsToFrames else { return false }
        planned = planned.union(region)
        region = PixelRect(x: 0, y: 0, width: 0, height: 0)
        canvas = PixelBuffer(width: 0, height: 0, format: canvas.format)
        saved = []
        pendingRect = region
        pendingDispose = .none
        return true
    }

    /// Grows `region` to cover `rect`, which lies inside the canvas, as a frame reaches past
    /// it: taking twice the size in each direction the canvas allows, so frames that creep
    /// outwards reallocate a few times, not once per frame.
    private mutating func include(_ rect: PixelRect) {
        guard growsToFrames, !rect.isEmpty, !region.contains(rect) else { return }
        guard !region.isEmpty else {
            grow(to: planned.union(rect))
            planned = PixelRect(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let next = region.union(rect)
        let doubled = PixelRect(x: next.x - next.width / 2, y: next.y - next.height / 2, width: next.width * 2, height: next.height * 2)
        grow(to: doubled.intersection(bounds))
    }

    /// Moves the pixels of `region` into a transparent buffer covering `next` ⊇ `region`.
    private mutating func grow(to next: PixelRect) {
        var grown = PixelBuffer(width: next.width, height: next.height, format: canvas.format)
        let bpp = bytesPerPixel
        if !region.isEmpty {
            let rowBytes = region.width * bpp, from = canvas.bytesPerRow, to = grown.bytesPerRow
            let dx = region.x - next.x, dy = region.y - next.y
            canvas.bytes.withUnsafeBytes { src in
                grown.bytes.withUnsafeMutableBytes { dst in
                    for row in 0..<region.height {
                        (dst.baseAddress! + (dy + row) * to + dx * bpp).copyMemory(from: src.baseAddress! + row * from, byteCount: rowBytes)
                    }
                }
            }
        }
        canvas = grown
        region = next
    }

    /// Applies the previous frame's disposal and records this frame's. Returns the part of
    /// `rect` inside the canvas, where the frame may draw.
    @discardableResult
    package mutating func beginFrame(rect: PixelRect, dispose: DisposeMode) -> PixelRect {
        applyPendingDisposal()
        let clipped = rect.intersection(bounds)
        include(clipped)
        pendingRect = clipped
        pendingDispose = dispose
        if dispose == .previous, !clipped.isEmpty {
            let bpp = bytesPerPixel, rowBytes = clipped.width * bpp
            if saved.count < rowBytes * clipped.height {
                saved = [UInt8](repeating: 0, count: rowBytes * clipped.height)
            }
            let (ox, oy) = (clipped.x - region.x, clipped.y - region.y)
            canvas.bytes.withUnsafeBytes { src in
                saved.withUnsafeMutableBytes { dst in
                    for row in 0..<clipped.height {
                        let s = (oy + row) * canvas.bytesPerRow + ox * bpp
                        (dst.baseAddress! + row * rowBytes).copyMemory(from: src.baseAddress! + s, byteCount: rowBytes)
                    }
                }
            }
        }
        return clipped
    }

    /// Draws straight-alpha RGBA pixels at `channelDepth` whose top-left lands at (`rect.x`,
    /// `rect.y`); `pixels` holds `rect.height` rows of `rect.width` pixels at `bytesPerRow`.
    /// Parts outside the canvas are clipped.
    package mutating func draw(_ pixels: UnsafeRawBufferPointer, bytesPerRow: Int, rect: PixelRect, blend: BlendMode) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return }
        include(clipped)
        let bpp = bytesPerPixel
        precondition(
            bytesPerRow >= rect.width * bpp && pixels.count >= bytesPerRow * (rect.height - 1) + rect.width * bpp,
            "frame pixels smaller than their rectangle")
        let stride = canvas.bytesPerRow
        if channelDepth == .sixteen {
            canvas.bytes.withUnsafeMutableBytes { dstRaw in
                for row in 0..<clipped.height {
                    let d = dstRaw.baseAddress! + (clipped.y - region.y + row) * stride + (clipped.x - region.x) * 8
                    let s = pixels.baseAddress! + (clipped.y - rect.y + row) * bytesPerRow + (clipped.x - rect.x) * 8
                    if blend == .source {
                        d.copyMemory(from: s, byteCount: clipped.width * 8)
                    } else {
                        Compositor.blendOverRow16(
                            d.assumingMemoryBound(to: UInt16.self), s.assumingMemoryBound(to: UInt16.self), count: clipped.width)
                    }
                }
            }
            return
        }
        let dx = clipped.x - rect.x, dy = clipped.y - rect.y
        canvas.bytes.withUnsafeMutableBytes { dstRaw in
            let dst = dstRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let src = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<clipped.height {
                let d = dst + (clipped.y - region.y + row) * stride + (clipped.x - region.x) * 4
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
    /// from palette indices) between `beginFrame` and the next frame. `body` sees the
    /// pixels of `region`, which need not start at (0, 0): `withPixels(in:_:)` addresses
    /// canvas coordinates.
    package mutating func withCanvas<R>(_ body: (inout PixelBuffer) throws -> R) rethrows -> R {
        try body(&canvas)
    }

    /// Direct access to the pixels of `rect`, which lies inside the canvas, for decoders that
    /// write rows in place (from palette indices, or a library decoding into the canvas) between
    /// `beginFrame` and the next frame: `body` gets the address of `rect`'s top-left pixel
    /// and the bytes from one row to the next. The held region grows to cover `rect` first.
    package mutating func withPixels<R>(in rect: PixelRect, _ body: (UnsafeMutableRawPointer, _ bytesPerRow: Int) throws -> R) rethrows -> R {
        precondition(!rect.isEmpty && rect.intersection(bounds) == rect, "withPixels(in:) takes a rectangle inside the canvas")
        include(rect)
        let stride = canvas.bytesPerRow, offset = (rect.y - region.y) * stride + (rect.x - region.x) * bytesPerPixel
        return try canvas.bytes.withUnsafeMutableBytes { raw in try body(raw.baseAddress! + offset, stride) }
    }

    /// Copies the canvas into `output` in `format`'s alpha mode, downsampling when
    /// `size` is smaller than the canvas, and converting with `colorTransform` when there is
    /// one. `output` is reshaped (reusing its storage).
    package func copyCanvas(into output: inout PixelBuffer, size: PixelSize? = nil, format: PixelFormat) {
        canvas.copy(
            placedAt: region, inCanvasOf: canvasSize, into: &output, size: size ?? canvasSize, format: format,
            colorTransform: colorTransform)
    }

    private mutating func applyPendingDisposal() {
        let r = pendingRect
        guard !r.isEmpty else { return }
        let stride = canvas.bytesPerRow, (ox, oy) = (r.x - region.x, r.y - region.y), bpp = bytesPerPixel
        switch pendingDispose {
        case .none:
            break
        case .background:
            canvas.bytes.withUnsafeMutableBytes { raw in
                for row in 0..<r.height {
                    (raw.baseAddress! + (oy + row) * stride + ox * bpp).initializeMemory(as: UInt8.self, repeating: 0, count: r.width * bpp)
                }
            }
        case .previous:
            let rowBytes = r.width * bpp
            canvas.bytes.withUnsafeMutableBytes { dst in
                saved.withUnsafeBytes { src in
                    for row in 0..<r.height {
                        (dst.baseAddress! + (oy + row) * stride + ox * bpp).copyMemory(from: src.baseAddress! + row * rowBytes, byteCount: rowBytes)
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

    /// `blendOverRow` at 16 bits per channel: the same rule, in integers scaled by 65,535.
    @inline(__always)
    static func blendOverRow16(_ d: UnsafeMutablePointer<UInt16>, _ s: UnsafePointer<UInt16>, count: Int) {
        for i in 0..<count {
            let o = i * 4
            let sa = UInt64(s[o + 3])
            if sa == 65_535 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = 65_535
                continue
            }
            if sa == 0 { continue }
            let da = UInt64(d[o + 3])
            if da == 0 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = s[o + 3]
                continue
            }
            let t = da * (65_535 - sa)  // αd(1−αs), scaled by 65,535²
            let a2 = sa * 65_535 + t  // αo scaled by 65,535²
            let half = a2 / 2
            for c in 0..<3 {
                d[o + c] = UInt16(truncatingIfNeeded: (UInt64(s[o + c]) * sa * 65_535 + UInt64(d[o + c]) * t + half) / a2)
            }
            d[o + 3] = UInt16(truncatingIfNeeded: (a2 + 32_767) / 65_535)
        }
    }
}
