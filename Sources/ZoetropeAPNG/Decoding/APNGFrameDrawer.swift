import Zoetrope

/// Draws the frames of an index over a file's bytes: what `APNGFrameSource` decodes with,
/// and an incremental source over the bytes received when the decode began.
struct APNGFrameDrawer: APNGFrameDrawing {
    let index: APNGIndex
    let file: UnsafeRawBufferPointer
    let format: ImageFormat
    let limits: Limits
    /// The depth frames decode to: the canvas's (`Compositor.channelDepth`).
    var depth: ChannelDepth = .eight

    func frameError(_ error: any Error, frame i: Int) -> any Error {
        APNGFrameDrawer.frameError(error, frame: i, format: format)
    }

    /// A libpng failure on frame 0 as it is; on a later frame, the truncation of the
    /// animation after the `i` frames before it.
    static func frameError(_ error: any Error, frame i: Int, format: ImageFormat) -> any Error {
        guard i > 0 else { return error }
        return AnimatedImageError.truncated(format: format, completeFrames: i, reason: "frame \(i) does not decode: \(error)")
    }

    func decodeFull(_ i: Int, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int, stream: inout PNGFrameStream) throws {
        let frame = index.frames[i]
        try stream.prepare(frame, index: index, file: file, format: format)
        let outcome = try stream.decode(
            frame, file: file, into: pixels, bytesPerRow: bytesPerRow, limits: limits, format: format, depth: depth)
        clearUndecoded(outcome, pixels, bytesPerRow: bytesPerRow, rect: frame.rect)
    }

    func draw(_ i: Int, state s: inout APNGDecodeState) throws {
        let frame = index.frames[i]
        try s.stream.prepare(frame, index: index, file: file, format: format)
        let r = s.compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
        precondition(r == frame.rect, "the walker keeps frames inside the canvas")
        precondition(s.compositor.channelDepth == depth, "the drawer decodes at the canvas's depth")
        let stream = s.stream
        let (file, format, limits, depth) = (self.file, self.format, self.limits, self.depth)
        if frame.blend == .source || i == 0 {
            // Replacing pixels (or drawing onto the clear canvas of a play's first frame):
            // libpng writes straight into the canvas.
            try s.compositor.withPixels(in: r) { origin, stride in
                let outcome = try stream.decode(
                    frame, file: file, into: origin, bytesPerRow: stride,
                    limits: limits, format: format, depth: depth)
                clearUndecoded(outcome, origin, bytesPerRow: stride, rect: r)
            }
            return
        }
        let rowBytes = r.width * depth.bytesPerPixel
        if s.scratch.count < rowBytes * r.height { s.scratch = [UInt8](repeating: 0, count: rowBytes * r.height) }
        try s.scratch.withUnsafeMutableBytes { dst in
            let outcome = try stream.decode(
                frame, file: file, into: dst.baseAddress!, bytesPerRow: rowBytes,
                limits: limits, format: format, depth: depth)
            clearUndecoded(outcome, dst.baseAddress!, bytesPerRow: rowBytes, rect: r)
        }
        let scratch = s.scratch
        scratch.withUnsafeBytes { s.compositor.draw($0, bytesPerRow: rowBytes, rect: r, blend: .over) }
    }

    /// Rows a decode did not reach become transparent: a frame whose image data ends early
    /// keeps the rows decoded before the end (Docs/FormatRules.md).
    func clearUndecoded(_ outcome: PNGFrameStream.Outcome, _ pixels: UnsafeMutableRawPointer, bytesPerRow: Int, rect: PixelRect) {
        guard let broken = outcome.broken else { return }
        PNGRowCoverage.clearUndecoded(
            pixels, bytesPerRow: bytesPerRow, width: rect.width, height: rect.height,
            interlaced: index.header.interlace != 0, pass: broken.pass, row: broken.row, bytesPerPixel: depth.bytesPerPixel)
    }
}
