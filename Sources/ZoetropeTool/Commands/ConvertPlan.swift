import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeQuality
import ZoetropeWebP

/// The encoder and settings `convert`'s options ask for, checked before any input is read.
struct ConvertPlan {
    var encoder: any AnimatedImageEncoder
    var quality: Int?
    var targetSize: PixelSize?
    var loopCount: LoopCount?
    /// What happens to the source's colour description and metadata (--to-srgb, --strip).
    var description = AnimationConversion.DescriptionPolicy()
    /// Whether --depth chose the AVIF depth; if not, a deep source chooses it (`encoder(for:)`).
    var depthIsGiven = false
    /// --target-quality: the mean SSIMULACRA2 the output must reach (`QualitySearch`).
    var targetQuality: Double?

    init(_ a: Arguments, outPath: String) throws(UsageError) {
        let format = try ConvertPlan.format(a.value("format"), outPath: outPath)
        let quality = try a.int("quality", range: 0...100)
        if a.flag("lossless"), quality != nil { throw UsageError("--lossless and --quality exclude each other") }
        func only(_ names: [String], for allowed: String) throws(UsageError) {
            for n in names where a.value(n) != nil || a.flag(n) {
                throw UsageError("--\(n) applies to \(allowed) output only")
            }
        }
        switch format {
        case "gif":
            try only(["quality", "lossless", "mixed", "speed", "codec", "depth", "chroma", "content"], for: "WebP or AVIF")
            guard let dither = GIFDither(rawValue: a.value("dither") ?? "none") else {
                throw UsageError("--dither is none, ordered or fs, got '\(a.value("dither")!)'")
            }
            encoder = GIFEncoder(dither: dither, lossy: try a.int("lossy", range: 0...GIFEncoder.maxLossy))
        case "apng":
            try only(["quality", "lossless", "mixed", "speed", "codec", "depth", "chroma", "content"], for: "WebP or AVIF")
            try only(["dither", "lossy"], for: "GIF")
            encoder = APNGEncoder()
        case "webp":
            try only(["speed", "codec", "depth", "chroma", "content"], for: "AVIF")
            try only(["dither", "lossy"], for: "GIF")
            var webp = WebPEncoder(mixed: a.flag("mixed"))
            if outPath != "-" { webp.spillDirectory = URL(fileURLWithPath: outPath).deletingLastPathComponent() }
            encoder = webp
            self.quality = quality
        default:  // avif
            try only(["mixed"], for: "WebP")
            try only(["dither", "lossy"], for: "GIF")
            var avif = AVIFEncoder()
            avif.speed = try a.int("speed", range: 0...10) ?? 6
            let depth = try a.int("depth", range: 8...12)
            guard depth.map({ [8, 10, 12].contains($0) }) ?? true else { throw UsageError("--depth is 8, 10 or 12, got '\(depth!)'") }
            avif.depth = depth ?? 8
            depthIsGiven = depth != nil
            if let c = a.value("codec") {
                guard AVIFEncoder.isAvailable(codec: c) else {
                    throw UsageError("--codec '\(c)' cannot encode here (libavif has: \(AVIFEncoder.availableCodecs))")
                }
                avif.codec = c
            }
            avif.chroma = AVIFEncoder.defaultChroma(codec: avif.codec)
            if let c = a.value("chroma") {
                guard let chroma = AVIFChroma(rawValue: c) else { throw UsageError("--chroma is 420 or 444, got '\(c)'") }
                avif.chroma = chroma
            }
            if let c = a.value("content") {
                guard let content = AVIFContent(rawValue: c) else {
                    throw UsageError("--content is automatic, screen or natural, got '\(c)'")
                }
                avif.content = content
            }
            encoder = avif
            self.quality = a.flag("lossless") ? nil : (quality ?? ConvertPlan.avifQuality)
        }
        targetSize = try ConvertPlan.size(a)
        if let t = a.value("target-quality") {
            guard format != "apng" else { throw UsageError("--target-quality applies to WebP, AVIF or GIF output only") }
            guard let v = Double(t), (0...100).contains(v) else {
                throw UsageError("--target-quality is a SSIMULACRA2 score from 0 to 100, got '\(t)'")
            }
            guard quality == nil, !a.flag("lossless") else {
                throw UsageError("--target-quality chooses the quality: leave out --quality and --lossless")
            }
            guard a.value("lossy") == nil else { throw UsageError("--target-quality chooses --lossy: leave it out") }
            guard targetSize == nil else { throw UsageError("--target-quality compares full-size frames: leave out --resize and --max-size") }
            targetQuality = v
        }
        description = AnimationConversion.DescriptionPolicy(keepsColor: !a.flag("to-srgb"), stripsMetadata: a.flag("strip"))
        if let loops = a.value("loops") {
            if loops == "infinite" {
                loopCount = .infinite
            } else if let n = Int(loops), n >= 1 {
                loopCount = .plays(n)
            } else {
                throw UsageError("--loops is a number of plays (1 or more) or 'infinite', got '\(loops)'")
            }
        }
    }

    /// How the source is decoded: at the target size, its colour values as stored unless
    /// --to-srgb asks for sRGB.
    var decodingOptions: DecodingOptions {
        DecodingOptions(targetSize: targetSize, colorOutput: description.colorOutput)
    }

    /// The encoder for a source described by `info`: AVIF without --depth keeps a deep
    /// source deep (12 bits from a 12-bit AVIF, 10 from anything deeper than 8).
    func encoder(for info: AnimationInfo) -> any AnimatedImageEncoder {
        guard !depthIsGiven, info.isDeep, var avif = encoder as? AVIFEncoder else { return encoder }
        avif.depth = info.bitsPerChannel == 12 ? 12 : 10
        return avif
    }

    /// `decodingOptions` for a source described by `info` written by `encoder`: RGBA16 when
    /// both the source and the encoder hold more than 8 bits.
    func decodingOptions(for info: AnimationInfo, encoder: any AnimatedImageEncoder) -> DecodingOptions {
        var options = decodingOptions
        if info.isDeep, encoder.storesDeepPixels { options.pixelFormat = .rgba16 }
        return options
    }

    /// `convert`'s AVIF quality when none is given.
    static let avifQuality = AVIFEncoder.defaultQuality

    /// The output format from --format or the extension of `outPath`.
    static func format(_ option: String?, outPath: String) throws(UsageError) -> String {
        let names = ["gif": "gif", "apng": "apng", "png": "apng", "webp": "webp", "avif": "avif", "avifs": "avif"]
        if let option {
            guard let f = names[option.lowercased()] else { throw UsageError("--format is gif, apng, webp or avif, got '\(option)'") }
            return f
        }
        guard outPath != "-" else { throw UsageError("writing to standard output needs --format") }
        let ext = URL(fileURLWithPath: outPath).pathExtension.lowercased()
        guard let f = names[ext] else {
            throw UsageError("cannot tell the output format from '\(outPath)' (use .gif, .png, .webp or .avif, or --format)")
        }
        return f
    }

    private static func size(_ a: Arguments) throws(UsageError) -> PixelSize? {
        switch (a.value("resize"), try a.int("max-size", range: 1...65535)) {
        case (nil, nil): return nil
        case (_?, _?): throw UsageError("--resize and --max-size exclude each other")
        case (nil, let n?): return PixelSize(width: n, height: n)
        case (let r?, nil):
            let parts = r.lowercased().split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...65535).contains(w), (1...65535).contains(h) else {
                throw UsageError("--resize is WxH (e.g. 320x240), got '\(r)'")
            }
            return PixelSize(width: w, height: h)
        }
    }
}
