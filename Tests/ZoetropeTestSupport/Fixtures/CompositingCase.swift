import Foundation
import Zoetrope

/// A small animation described frame by frame (rectangle, pixels, disposal, blend), written
/// as a GIF or an APNG, for the contract checker's random-order and seek checks: the
/// `generated` cases start with the shapes that once made a restart wrong, then random ones
/// over every disposal, blend and rectangle.
package struct CompositingCase: Sendable, CustomStringConvertible {
    /// One frame: a rectangle of pixels, each one of `CompositingCase.colors`.
    package struct Frame: Sendable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
        /// `width × height` indices into `CompositingCase.colors`, rows top to bottom.
        package var colors: [Int]
        package var dispose: DisposeMode
        /// APNG only (a GIF frame always draws over): replace the rectangle, alpha too.
        package var blendSource: Bool

        package init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, colors: [Int],
            dispose: DisposeMode = .none, blendSource: Bool = false
        ) {
            precondition(colors.count == width * height, "one colour per pixel")
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.colors = colors
            self.dispose = dispose
            self.blendSource = blendSource
        }
    }

    /// The palette, straight RGBA: transparent, black, white, red, green.
    package static let colors: [[UInt8]] = [
        [0, 0, 0, 0], [0, 0, 0, 255], [255, 255, 255, 255],
        [255, 0, 0, 255], [0, 255, 0, 255],
    ]
    package static let transparent = 0, black = 1, white = 2, red = 3, green = 4

    package var name: String
    package var width: Int
    package var height: Int
    package var frames: [Frame]

    package init(name: String, width: Int, height: Int, frames: [Frame]) {
        self.name = name
        self.width = width
        self.height = height
        self.frames = frames
    }

    package var description: String { name }

    /// A 2×2 animation: an opaque black frame over the whole canvas disposed to previous,
    /// then one white pixel at (0, 0), then one red pixel at (1, 0). Seeking back to frame 1
    /// after frames 2 and 0 must not bring frame 2's red pixel back.
    package static let coveringFrameDisposedToPrevious = CompositingCase(
        name: "a covering first frame disposed to previous", width: 2, height: 2,
        frames: [
            Frame(width: 2, height: 2, colors: [black, black, black, black], dispose: .previous, blendSource: true),
            Frame(width: 1, height: 1, colors: [white]),
            Frame(x: 1, width: 1, height: 1, colors: [red]),
        ])

    /// The same after a first frame that leaves the canvas clear, so that the covering frame
    /// disposed to previous is frame 1 (in APNG, PREVIOUS on the first frame acts as
    /// BACKGROUND).
    package static let coveringSecondFrameDisposedToPrevious = CompositingCase(
        name: "a covering second frame disposed to previous", width: 2, height: 2,
        frames: [
            Frame(x: 1, y: 1, width: 1, height: 1, colors: [green], dispose: .background),
            Frame(width: 2, height: 2, colors: [black, black, black, black], dispose: .previous, blendSource: true),
            Frame(width: 1, height: 1, colors: [white]),
            Frame(x: 1, width: 1, height: 1, colors: [red]),
        ])

    /// The fixed shapes above, then `random` cases of 3 to 6 frames on a 3×2 canvas with
    /// random rectangles (the whole canvas a third of the time), pixels, disposals and blends.
    package static func generated(random: Int = 40, seed: UInt64 = 25) -> [CompositingCase] {
        var rng = SplitMix64(seed: seed)
        var cases = [coveringFrameDisposedToPrevious, coveringSecondFrameDisposedToPrevious]
        for c in 0..<random {
            let width = 3, height = 2
            let frames = (0..<Int.random(in: 3...6, using: &rng)).map { _ -> Frame in
                let whole = Int.random(in: 0..<3, using: &rng) == 0
                let w = whole ? width : Int.random(in: 1...width, using: &rng)
                let h = whole ? height : Int.random(in: 1...height, using: &rng)
                let x = Int.random(in: 0...(width - w), using: &rng), y = Int.random(in: 0...(height - h), using: &rng)
                return randomFrame(x: x, y: y, width: w, height: h, using: &rng)
            }
            cases.append(CompositingCase(name: "generated case \(c) (seed \(seed))", width: width, height: height, frames: frames))
        }
        return cases
    }

    /// `count` cases of 4 to 8 frames on a 40×30 canvas whose frames keep to its
    /// bottom-right corner (now and then one elsewhere, or reaching past the edge): a decoder
    /// that holds only the drawn area starts small, grows, and must give the whole canvas's
    /// pixels. Only GIF frames after the first reach past the edge (an APNG frame must lie
    /// inside the canvas; a GIF's first frame reaching past it grows the canvas).
    package static func inACorner(count: Int = 12, seed: UInt64 = 2503, pastTheEdge: Bool) -> [CompositingCase] {
        var rng = SplitMix64(seed: seed)
        let width = 40, height = 30
        return (0..<count).map { c in
            let frames = (0..<Int.random(in: 4...8, using: &rng)).map { i -> Frame in
                let w = Int.random(in: 1...5, using: &rng), h = Int.random(in: 1...4, using: &rng)
                let far = Int.random(in: 0..<5, using: &rng) == 0
                var x = far ? Int.random(in: 0...(width - w), using: &rng) : width - w - Int.random(in: 0...3, using: &rng)
                let y = far ? Int.random(in: 0...(height - h), using: &rng) : height - h - Int.random(in: 0...3, using: &rng)
                if pastTheEdge, i > 0, Int.random(in: 0..<4, using: &rng) == 0 { x = width - 1 }
                return randomFrame(x: x, y: y, width: w, height: h, using: &rng)
            }
            return CompositingCase(name: "corner case \(c) (seed \(seed))", width: width, height: height, frames: frames)
        }
    }

    /// A frame at (`x`, `y`) of random pixels, opaque half the time (so that some cover the
    /// canvas), with a random disposal and blend.
    static func randomFrame(x: Int, y: Int, width w: Int, height h: Int, using rng: inout SplitMix64) -> Frame {
        let opaque = Bool.random(using: &rng)
        let pixels = (0..<w * h).map { _ in Int.random(in: (opaque ? 1 : 0)..<colors.count, using: &rng) }
        return Frame(
            x: x, y: y, width: w, height: h, colors: pixels,
            dispose: [.none, .background, .previous][Int.random(in: 0..<3, using: &rng)],
            blendSource: Bool.random(using: &rng))
    }

    /// The frames as the browsers composite them, drawn on a whole-canvas `Compositor`
    /// (GIF: every frame drawn over; APNG: `blendSource` replaces), copied out at `size` in
    /// `format`: the reference for decoders that hold less than the whole canvas.
    package func expectedFrames(apng: Bool, size: PixelSize? = nil, format: PixelFormat = .rgba8) -> [PixelBuffer] {
        var c = Compositor(size: PixelSize(width: width, height: height))
        return frames.map { f in
            let rect = PixelRect(x: f.x, y: f.y, width: f.width, height: f.height)
            c.beginFrame(rect: rect, dispose: f.dispose)
            let rgba = f.colors.flatMap { Self.colors[$0] }
            rgba.withUnsafeBytes { c.draw($0, bytesPerRow: f.width * 4, rect: rect, blend: apng && f.blendSource ? .source : .over) }
            var out = PixelBuffer()
            c.copyCanvas(into: &out, size: size, format: format)
            return out
        }
    }

    /// Decodes every frame of `data` (this case written for `coder`'s format) at full size,
    /// downsampled to 13×10 and premultiplied, and names each frame that differs from
    /// `expectedFrames`: nothing when the decoder composites as a whole canvas does.
    package func framesDifferingFromTheReference(coder: any AnimatedImageCoder, data: Data, apng: Bool) throws -> [String] {
        var differing: [String] = []
        for (size, format) in [(nil, PixelFormat.rgba8), (PixelSize(width: 13, height: 10), .rgba8), (nil, .rgba8Premultiplied)] {
            let source = try coder.makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format, targetSize: size))
            for (i, expected) in expectedFrames(apng: apng, size: size, format: format).enumerated() {
                let frame = try source.decodeFrame(at: i)
                if frame.size != expected.size || frame.packedBytes != expected.packedBytes {
                    differing.append("frame \(i) at \(size.map { "\($0)" } ?? "full size") \(format)")
                }
            }
        }
        return differing
    }

    private static func apngDisposeOp(_ d: DisposeMode) -> UInt8 {
        switch d {
        case .none: 0
        case .background: 1
        case .previous: 2
        }
    }

    /// The animation as a GIF: one global palette, index 0 the transparent index of every
    /// frame that uses it (a frame without one is opaque).
    package var gif: Data {
        let palette = Self.colors.map { (r: $0[0], g: $0[1], b: $0[2]) }
        var w = GIFWriter(width: width, height: height, globalColors: palette)
        w.loop(0)
        for f in frames {
            let disposal =
                switch f.dispose {
                case .none: 1
                case .background: 2
                case .previous: 3
                }
            w.graphicControl(
                delay: 10, disposal: disposal,
                transparentIndex: f.colors.contains(Self.transparent) ? Self.transparent : nil)
            w.image(x: f.x, y: f.y, width: f.width, height: f.height, indices: f.colors.map { UInt8($0) })
        }
        return Data(w.file)
    }

    /// The animation as an APNG whose default image is frame 0. That frame must fill the
    /// canvas, so a smaller one is padded with transparent pixels (the same canvas: it is
    /// drawn on a transparent one, and its disposal acts on transparent pixels only).
    package var apng: Data {
        var frames = frames
        if let f = frames.first, f.x != 0 || f.y != 0 || f.width != width || f.height != height {
            var padded = [Int](repeating: Self.transparent, count: width * height)
            for row in 0..<f.height {
                for col in 0..<f.width { padded[(f.y + row) * width + f.x + col] = f.colors[row * f.width + col] }
            }
            frames[0] = Frame(width: width, height: height, colors: padded, dispose: f.dispose, blendSource: f.blendSource)
        }
        return APNGWriter.animation(
            width: width, height: height,
            frames: frames.map { f in
                APNGWriter.Frame(
                    x: f.x, y: f.y, width: f.width, height: f.height,
                    rgba: f.colors.flatMap { Self.colors[$0] },
                    disposeOp: Self.apngDisposeOp(f.dispose),
                    blendOp: f.blendSource ? 0 : 1)
            }
        ).data
    }
}
