import Foundation
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeWebP

@testable import Zoetrope

/// The `encode` target: the input chooses a format and an animation (canvas size, a
/// palette with or without alpha, frames drawn from it, durations, plays, rows with or
/// without padding); the format's encoder writes it, the project's decoder reads it back,
/// and the result must match within what the encoder documents:
///
/// - APNG, lossless WebP and lossless AVIF: every pixel exact (WebP merges a frame equal to
///   the one before it into it, summing the durations);
/// - GIF: alpha below 128 transparent, else opaque; every colour exact when a frame holds at
///   most 256 colours (transparent counted as one), else only the alpha; with lossy LZW
///   (half of the GIF inputs, 1–2600 on gifsicle's scale) such colours within a squared
///   distance of 10 × that instead;
/// - lossy WebP and AVIF: the structure only;
/// - and for every format the canvas, the frame count, the durations as the format stores
///   them (GIF centiseconds, WebP milliseconds, APNG 16-bit fractions, AVIF exact) and the
///   plays (each format's largest count where more are asked; AVIF forever where its track
///   duration cannot hold the count); a single frame may be
///   written as a still image, whose durations and plays are not compared.
///
/// Every choice stays inside what the encoder accepts, so an error from the encoder or the
/// decoder is a problem too, not only a trap.
enum FuzzEncoding {
    enum Format: CaseIterable { case gif, apng, webpLossless, webpLossy, avif }

    /// One animation to encode.
    struct Animation {
        var format: Format
        var canvas: PixelSize
        var frames: [EncodingFrame]
        var loopCount: LoopCount
        var quality: Int?
        /// `GIFEncoder.lossy` (0: exact).
        var lossy = 0
    }

    /// Canvas sides and frame counts: small, so one input runs in milliseconds (AVIF in
    /// well under a second).
    static func bounds(_ format: Format) -> (side: Int, frames: Int) {
        format == .avif ? (32, 4) : (64, 8)
    }

    static func animation(from data: Data) -> Animation {
        var r = FuzzByteReader(data)
        let format = Format.allCases[r.below(Format.allCases.count)]
        let (side, maxFrames) = bounds(format)
        let canvas = PixelSize(width: 1 + r.below(side), height: 1 + r.below(side))
        let count = 1 + r.below(maxFrames)
        let loopCount: LoopCount =
            switch r.below(8) {
            case 0: .infinite
            case 1: .once
            case 2: .plays(2 + Int(r.byte()))
            case 3: .plays(65534 + r.below(4))
            case 4: .plays(Int(UInt32.max) - 1 + r.below(4))
            case 5: .plays(Int.max - r.below(4))
            case 6: .plays(1 + (r.uint16() << 16 | r.uint16()))
            default: .plays(1 + r.below(3))
            }
        var quality: Int?
        switch format {
        case .webpLossy: quality = r.below(101)
        case .avif: quality = r.below(2) == 0 ? nil : r.below(101)
        default: quality = nil
        }

        // The palette: opaque, binary alpha, or any alpha.
        let colours = 1 + Int(r.byte())
        let alphaKind = r.below(3)
        let palette: [[UInt8]] = (0..<colours).map { _ in
            let rgb = [r.byte(), r.byte(), r.byte()]
            let a: UInt8 =
                switch alphaKind {
                case 0: 255
                case 1: r.below(2) == 0 ? 0 : 255
                default: r.byte()
                }
            return rgb + [a]
        }
        let padding = r.below(4) == 0 ? 4 * (1 + r.below(3)) : 0

        var frames: [EncodingFrame] = []
        var previous = PixelBuffer(
            width: canvas.width, height: canvas.height,
            bytesPerRow: canvas.width * 4 + padding)
        for index in 0..<count {
            var pixels = previous
            switch r.below(4) {
            case 0:  // noise from the palette
                for y in 0..<canvas.height {
                    for x in 0..<canvas.width { pixels.setPixel(x: x, y: y, palette[r.below(colours)]) }
                }
            case 1 where index > 0:  // the frame before, unchanged
                break
            case 2:  // a rectangle over the frame before
                let x = r.below(canvas.width), y = r.below(canvas.height)
                let width = 1 + r.below(canvas.width - x), height = 1 + r.below(canvas.height - y)
                pixels.paint(x: x, y: y, width: width, height: height, palette[r.below(colours)])
            default:  // one colour
                pixels.paint(x: 0, y: 0, width: canvas.width, height: canvas.height, palette[r.below(colours)])
            }
            previous = pixels
            frames.append(EncodingFrame(pixels: pixels, duration: duration(&r)))
        }
        // Read last, so that the choices above mean what they meant before it existed.
        let lossy = format == .gif && r.below(2) == 1 ? 1 + r.below(2600) : 0
        return Animation(format: format, canvas: canvas, frames: frames, loopCount: loopCount, quality: quality, lossy: lossy)
    }

    /// Durations every format stores (WebP's limit, 16777215 ms, is the lowest).
    static func duration(_ r: inout FuzzByteReader) -> FrameDuration {
        switch r.below(7) {
        case 0: .zero
        case 1: .milliseconds(Int64(r.below(11)))
        case 2: .milliseconds(Int64(r.uint16()))
        case 3: .centiseconds(Int64(r.byte()))
        case 4: FrameDuration(numerator: Int64(r.uint16() % 50000), denominator: [3, 7, 30, 60, 1000, 65535][r.below(6)])
        case 5: .seconds(Int64(r.uint16() % 16000))
        default: FrameDuration(numerator: Int64(1 + r.below(200)), denominator: Int64(1 + r.below(250)))
        }
    }

    static func encoder(_ format: Format, lossy: Int = 0) -> any AnimatedImageEncoder {
        switch format {
        case .gif: GIFEncoder(lossy: lossy)
        case .apng: APNGEncoder(fast: true)
        case .webpLossless, .webpLossy: WebPEncoder(method: 0)
        case .avif: AVIFEncoder(speed: 10, threads: 1)
        }
    }

    static func coder(_ format: Format) -> any AnimatedImageCoder {
        switch format {
        case .gif: GIFCoder()
        case .apng: APNGCoder()
        case .webpLossless, .webpLossy: WebPCoder()
        case .avif: AVIFCoder()
        }
    }

    static func run(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let animation = animation(from: data)
        let encoded: Data
        do {
            encoded = try encoder(animation.format, lossy: animation.lossy).encode(
                animation.frames, canvasSize: animation.canvas,
                options: EncodingOptions(loopCount: animation.loopCount, quality: animation.quality))
        } catch {
            outcome.problem = "\(animation.format) encoder threw \(type(of: error)): \(error) for \(describe(animation))"
            return outcome
        }
        do {
            let source = try coder(animation.format).makeFrameSource(data: encoded, options: DecodingOptions(threadCount: 1))
            outcome.opened = true
            outcome.frameCount = source.info.frameCount
            if let problem = try compare(animation, source, &outcome) {
                outcome.problem = "\(problem) for \(describe(animation))"
            }
        } catch {
            outcome.problem =
                "decoding the \(animation.format) encoder's \(encoded.count) bytes threw \(type(of: error)): \(error) for \(describe(animation))"
        }
        return outcome
    }

    static func describe(_ a: Animation) -> String {
        "\(a.frames.count) frame(s) of \(a.canvas), plays \(a.loopCount), quality \(a.quality.map(String.init) ?? "lossless"), lossy \(a.lossy), durations \(a.frames.map(\.duration))"
    }

    /// The output frames: runs of input frames. WebP merges a frame equal to the one before
    /// into it while the sum of their displayed milliseconds fits its 24 bits.
    static func groups(_ a: Animation) -> [Range<Int>] {
        let merges = a.format == .webpLossless || a.format == .webpLossy
        var groups: [Range<Int>] = []
        var milliseconds: Int128 = 0
        for i in a.frames.indices {
            let ms = webpShownMilliseconds(a.frames[i].duration)
            if merges, let last = groups.last, milliseconds + ms <= 0xFF_FFFF,
                a.frames[i].pixels.packedBytes == a.frames[last.lowerBound].pixels.packedBytes
            {
                groups[groups.count - 1] = last.lowerBound..<(i + 1)
                milliseconds += ms
            } else {
                groups.append(i..<(i + 1))
                milliseconds = ms
            }
        }
        return groups
    }

    static func compare(_ a: Animation, _ source: any FrameSource, _ outcome: inout FuzzOutcome) throws -> String? {
        let info = source.info
        guard info.canvasSize == a.canvas else { return "canvas \(info.canvasSize), encoded \(a.canvas)" }
        let groups = groups(a)
        if let truncation = info.truncation { return "the decoder reports a truncation: \(truncation)" }
        if a.format == .webpLossy {
            // Lossy frames also merge where the differences are below what the quality
            // keeps: fewer frames, the same total duration.
            guard (1...groups.count).contains(info.frameCount) else {
                return "\(info.frameCount) frame(s) decoded, 1…\(groups.count) expected"
            }
            var buffer = PixelBuffer()
            for i in 0..<info.frameCount {
                try source.decodeFrame(at: i, into: &buffer)
                outcome.framesDecoded += 1
                guard buffer.size == a.canvas else { return "frame \(i) decoded as \(buffer.size)" }
            }
            guard info.frameCount > 1 else { return nil }
            let expectedPlays = storedPlays(a.loopCount, a.format)
            if info.loopCount != expectedPlays { return "plays \(info.loopCount), expected \(expectedPlays)" }
            // Merged frames last what they displayed: the displayed total is kept.
            let asked = a.frames.reduce(Int128(0)) { $0 + webpShownMilliseconds($1.duration) }
            let total = info.displayDurations().reduce(FrameDuration.zero, +)
            return total == .milliseconds(Int64(asked)) ? nil : "displayed duration \(total), asked \(asked) ms"
        }
        guard info.frameCount == groups.count else {
            return "\(info.frameCount) frame(s) decoded, \(groups.count) expected"
        }
        // A single frame may be a still image (WebP, AVIF): no timing or plays to compare.
        if groups.count > 1 || a.format == .gif || a.format == .apng {
            let expectedPlays = storedPlays(a.loopCount, a.format)
            if info.loopCount != expectedPlays
                && !(a.format == .avif && info.loopCount == .infinite
                    && avifMayPlayForever(a.loopCount, a.frames.map(\.duration)))
            {
                return "plays \(info.loopCount), expected \(expectedPlays)"
            }
            // AVIF's timescale represents every duration when their denominators' least
            // common multiple fits 32 bits, and so does each duration in its ticks.
            var lcm: Int128 = 1
            for frame in a.frames where lcm <= Int128(UInt32.max) {
                let d = Int128(frame.duration.denominator)
                var x = lcm, y = d
                while y != 0 { (x, y) = (y, x % y) }
                lcm = lcm / x * d
            }
            for (i, group) in groups.enumerated() {
                let asked = group.map { a.frames[$0].duration }
                if let problem = durationProblem(
                    asked, stored: info.frameDurations[i], a.format,
                    exactTimescale: lcm <= Int128(UInt32.max)
                        && a.frames.allSatisfy {
                            Int128($0.duration.numerator) * (lcm / Int128($0.duration.denominator)) <= Int128(UInt32.max)
                        })
                {
                    return "frame \(i): \(problem)"
                }
            }
        }
        var buffer = PixelBuffer()
        for (i, group) in groups.enumerated() {
            try source.decodeFrame(at: i, into: &buffer)
            outcome.framesDecoded += 1
            guard buffer.size == a.canvas else { return "frame \(i) decoded as \(buffer.size)" }
            if let problem = pixelProblem(a.frames[group.lowerBound].pixels, buffer, a) {
                return "frame \(i): \(problem)"
            }
        }
        return nil
    }

    /// The plays each format stores for `loopCount`: its largest count where more are asked.
    static func storedPlays(_ loopCount: LoopCount, _ format: Format) -> LoopCount {
        switch format {
        case .gif: loopCount.capped(at: 65536)
        case .apng: loopCount.capped(at: Int(UInt32.max))
        case .webpLossless, .webpLossy: loopCount.capped(at: 65535)
        case .avif: loopCount
        }
    }

    /// AVIF stores plays as a track duration of plays × one play in 64 bits: a sequence of
    /// zero length cannot repeat a finite number of times, and a count whose track duration
    /// overflows plays forever. One play is at most 8 × (2³²−1) ticks here, so only counts
    /// above 2²⁹ can overflow.
    static func avifMayPlayForever(_ loopCount: LoopCount, _ durations: [FrameDuration]) -> Bool {
        guard case .plays(let n) = loopCount, n > 1 else { return false }
        return durations.allSatisfy(\.isZero) || n > 1 << 29
    }

    /// Nearest `unit`ths of a second, halves up.
    static func rounded(_ d: FrameDuration, per unit: Int64) -> Int128 {
        (Int128(d.numerator) * Int128(unit) + Int128(d.denominator) / 2) / Int128(d.denominator)
    }

    /// What WebP stores for `d`: whole milliseconds, at most its 24 bits' 16,777,215.
    static func webpMilliseconds(_ d: FrameDuration) -> Int128 {
        min(rounded(d, per: 1000), 0xFF_FFFF)
    }

    /// What a frame stored alone in WebP displays, in ms (10 ms or less: 100 ms).
    static func webpShownMilliseconds(_ d: FrameDuration) -> Int128 {
        let ms = webpMilliseconds(d)
        return ms <= 10 ? 100 : ms
    }

    static func durationProblem(
        _ asked: [FrameDuration], stored: FrameDuration, _ format: Format,
        exactTimescale: Bool
    ) -> String? {
        let expected: FrameDuration
        switch format {
        case .gif:
            var cs = min(rounded(asked[0], per: 100), 65535)
            if asked[0] > .milliseconds(10) { cs = max(cs, 2) }
            expected = .centiseconds(Int64(cs))
        case .webpLossless, .webpLossy:
            // Merged frames last the sum of what each displayed.
            let ms = asked.count == 1 ? webpMilliseconds(asked[0]) : asked.reduce(Int128(0)) { $0 + webpShownMilliseconds($1) }
            expected = .milliseconds(Int64(ms))
        case .avif:
            expected = asked[0]
            if !exactTimescale {
                // The finest of µs, ms, cs or s whose ticks fit: within half a second.
                let error = stored > expected ? stored - expected : expected - stored
                return error * 2 > .seconds(1) ? "duration \(stored), asked \(expected) (no exact timescale)" : nil
            }
        case .apng:
            let d = asked[0]
            if d.numerator <= 65535 && d.denominator <= 65535 {
                expected = d
            } else {
                // The finest of ms, cs, ds or s whose count fits 16 bits; within half of it.
                // Longer than 65,535 s: the longest APNG stores.
                guard let unit = [Int64(1000), 100, 10, 1].first(where: { rounded(d, per: $0) <= 65535 }) else {
                    return stored == .seconds(65535) ? nil : "duration \(stored), asked \(d) (longer than APNG's 65,535 s)"
                }
                let error = stored > d ? stored - d : d - stored
                if error * (2 * unit) > .seconds(1) { return "duration \(stored), asked \(d) (unit 1/\(unit) s)" }
                return nil
            }
        }
        return stored == expected ? nil : "duration \(stored), asked \(asked), expected \(expected)"
    }

    static func pixelProblem(_ input: PixelBuffer, _ output: PixelBuffer, _ a: Animation) -> String? {
        let exact: Bool
        switch a.format {
        case .apng, .webpLossless: exact = true
        case .avif: exact = a.quality == nil
        case .webpLossy: return nil
        case .gif:
            return gifPixelProblem(input, output, lossy: a.lossy)
        }
        guard exact else { return nil }
        let want = input.packedBytes, got = output.packedBytes
        guard want != got else { return nil }
        let i = want.indices.first { want[$0] != got[$0] }! / 4
        let x = i % a.canvas.width, y = i / a.canvas.width
        return "pixel (\(x),\(y)) is \(output.pixel(x: x, y: y)), encoded \(input.pixel(x: x, y: y))"
    }

    /// GIF: alpha thresholded at 128; colours exact when the frame holds at most 256, or
    /// within a squared distance of 10 × `lossy` (8-bit RGB) when the LZW pass may move them.
    static func gifPixelProblem(_ input: PixelBuffer, _ output: PixelBuffer, lossy: Int = 0) -> String? {
        var colours = Set<UInt32>()
        let want = input.packedBytes, got = output.packedBytes
        for p in stride(from: 0, to: want.count, by: 4) {
            colours.insert(want[p + 3] < 128 ? 0 : UInt32(want[p]) << 16 | UInt32(want[p + 1]) << 8 | UInt32(want[p + 2]) | 1 << 24)
        }
        let exact = colours.count <= 256
        for p in stride(from: 0, to: want.count, by: 4) {
            let transparent = want[p + 3] < 128
            let dr = Int(got[p]) - Int(want[p]), dg = Int(got[p + 1]) - Int(want[p + 1]), db = Int(got[p + 2]) - Int(want[p + 2])
            let ok =
                transparent
                ? got[p + 3] == 0
                : got[p + 3] == 255 && (!exact || dr * dr + dg * dg + db * db <= lossy * 10)
            if !ok {
                let x = p / 4 % input.width, y = p / 4 / input.width
                return "pixel (\(x),\(y)) is \(Array(got[p..<p + 4])), encoded \(Array(want[p..<p + 4])) (\(colours.count) colours)"
            }
        }
        return nil
    }
}
