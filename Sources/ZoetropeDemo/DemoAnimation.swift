import Zoetrope

/// The built-in sample: a five-second countdown with a progress bar, made in code.
///
/// 100 frames of 50 ms on a 756×304 canvas, playing forever. The panel has transparent
/// rounded corners and a half-transparent rim, so alpha handling shows. It needs no codec,
/// so the tool, tests and docs can always play it.
///
/// `package`, not public: it is the tool's `--demo`, the benchmarks' workload and the
/// tests' fixture, not something an application builds on.
package enum DemoAnimation {
    /// The canvas size.
    package static let canvasSize = PixelSize(width: 756, height: 304)
    /// The number of frames.
    package static let frameCount = 100
    /// Each frame's duration.
    package static let frameDuration = FrameDuration.milliseconds(50)
    /// The demo's format: not a file format, but a name for tooling output.
    package static let format = ImageFormat(identifier: "demo", mediaType: "application/x-zoetrope-demo", fileExtensions: [])

    /// The info every demo source reports.
    package static var info: AnimationInfo {
        AnimationInfo(
            format: format, canvasSize: canvasSize,
            frameDurations: Array(repeating: frameDuration, count: frameCount),
            loopCount: .infinite, storedLoopValue: nil, hasAlpha: true)
    }

    /// A decoding session over the demo.
    package static func makeFrameSource(options: DecodingOptions = .default) throws -> any FrameSource {
        try DemoFrameSource(options: options)
    }

    /// Hundredths of a second left on the countdown at frame `index`: 500, 495, … 5.
    package static func centisecondsLeft(atFrame index: Int) -> Int { 500 - index * 5 }

    /// Draws frame `index` onto `canvas` (which must be `canvasSize`, straight alpha).
    static func render(frame index: Int, into canvas: inout PixelBuffer) {
        canvas.clearToTransparent()
        let w = canvasSize.width, h = canvasSize.height
        // Half-transparent rim, then the opaque panel inside it; corners stay transparent.
        roundedRect(&canvas, PixelRect(x: 0, y: 0, width: w, height: h), radius: 28, rgba: (20, 24, 40, 128))
        roundedRect(&canvas, PixelRect(x: 6, y: 6, width: w - 12, height: h - 12), radius: 22, rgba: (24, 32, 64, 255))

        // Digits "S.CC" centred near the top, seven-segment style.
        let left = centisecondsLeft(atFrame: index)
        let digits = [left / 100, (left / 10) % 10, left % 10]
        let dw = 84, dh = 150, gap = 22, dot = 20
        let total = dw * 3 + gap * 3 + dot
        var x = (w - total) / 2
        let y = 30
        let ink: (UInt8, UInt8, UInt8, UInt8) = (250, 210, 80, 255)
        drawDigit(&canvas, digits[0], x: x, y: y, w: dw, h: dh, rgba: ink)
        x += dw + gap
        canvas.fill(PixelRect(x: x, y: y + dh - dot, width: dot, height: dot), with: ink)
        x += dot + gap
        drawDigit(&canvas, digits[1], x: x, y: y, w: dw, h: dh, rgba: ink)
        x += dw + gap
        drawDigit(&canvas, digits[2], x: x, y: y, w: dw, h: dh, rgba: ink)

        // Progress bar: a translucent track with an opaque fill growing to full on the last frame.
        let track = PixelRect(x: 40, y: 218, width: w - 80, height: 44)
        canvas.fill(track, with: (255, 255, 255, 64))
        let filled = (track.width * (index + 1) + frameCount / 2) / frameCount
        canvas.fill(PixelRect(x: track.x, y: track.y, width: filled, height: track.height), with: (80, 200, 120, 255))
    }

    private static func roundedRect(_ c: inout PixelBuffer, _ r: PixelRect, radius: Int, rgba: (UInt8, UInt8, UInt8, UInt8)) {
        for row in 0..<r.height {
            // Horizontal inset of this row from the corner circle.
            let dy = row < radius ? radius - row : (row >= r.height - radius ? row - (r.height - radius - 1) : 0)
            var inset = 0
            if dy > 0 {
                var dx = 0
                while dx * dx + dy * dy <= radius * radius { dx += 1 }
                inset = radius - dx + 1
            }
            c.fill(PixelRect(x: r.x + inset, y: r.y + row, width: r.width - 2 * inset, height: 1), with: rgba)
        }
    }

    // Segments a–g, standard order: top, top-right, bottom-right, bottom, bottom-left, top-left, middle.
    private static let segments: [[Bool]] = [
        [true, true, true, true, true, true, false], [false, true, true, false, false, false, false],
        [true, true, false, true, true, false, true], [true, true, true, true, false, false, true],
        [false, true, true, false, false, true, true], [true, false, true, true, false, true, true],
        [true, false, true, true, true, true, true], [true, true, true, false, false, false, false],
        [true, true, true, true, true, true, true], [true, true, true, true, false, true, true],
    ]

    private static func drawDigit(_ c: inout PixelBuffer, _ d: Int, x: Int, y: Int, w: Int, h: Int, rgba: (UInt8, UInt8, UInt8, UInt8)) {
        let t = 16, half = h / 2
        let rects = [
            PixelRect(x: x, y: y, width: w, height: t),
            PixelRect(x: x + w - t, y: y, width: t, height: half),
            PixelRect(x: x + w - t, y: y + half, width: t, height: h - half),
            PixelRect(x: x, y: y + h - t, width: w, height: t),
            PixelRect(x: x, y: y + half, width: t, height: h - half),
            PixelRect(x: x, y: y, width: t, height: half),
            PixelRect(x: x, y: y + half - t / 2, width: w, height: t),
        ]
        for (on, r) in zip(segments[d], rects) where on { c.fill(r, with: rgba) }
    }
}
