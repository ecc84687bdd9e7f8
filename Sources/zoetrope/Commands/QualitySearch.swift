import Foundation
import Zoetrope

/// `convert --target-quality S`: the lowest `--quality` whose output's mean SSIMULACRA2
/// against the source's frames is at least S, found by bisection over 0–100 (seven or eight
/// encodes), so that a batch of different sources each gets the bytes its content needs.
enum QualitySearch {
    /// The quality chosen, the score it gives and its encoded file; `reached` is false when
    /// even quality 100 stays below the target (then 100 is chosen).
    struct Choice {
        var quality: Int
        var score: Double
        var reached: Bool
        var output: (data: Data, summary: AnimationConversion.Summary)
    }

    /// Encodes `data`'s frames (decoded with `decoding`) with `encoder` and `options` at
    /// qualities chosen by bisection and scores each output against the source.
    static func quality(
        reaching target: Double, data: Data, decoding: DecodingOptions, encoder: any AnimatedImageEncoder,
        options: EncodingOptions, registry: CoderRegistry
    ) throws -> Choice {
        // The frames the output is judged against: the source as it is encoded from, in RGBA8.
        var reference = decoding
        reference.pixelFormat = .rgba8
        func encode(_ quality: Int) throws -> Choice {
            var o = options
            o.quality = quality
            let source = try registry.makeFrameSource(data: data, options: decoding)
            let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: o)
            let output = try AnimationConversion.run(source: source, writer: writer)
            let comparison = try AnimationComparison(
                registry.makeFrameSource(data: data, options: reference), registry.makeFrameSource(data: output.data, options: .default))
            guard let mean = comparison.meanSSIMULACRA2 else {
                throw ToolError("--target-quality scores frames of at least 8×8 (SSIMULACRA2); these are \(source.outputSize)")
            }
            return Choice(quality: quality, score: mean, reached: mean >= target, output: output)
        }
        var low = 0, high = 100
        var best: Choice?, last: Choice?
        while low <= high {
            let tried = try encode((low + high) / 2)
            last = tried
            if tried.reached {
                best = tried
                high = tried.quality - 1
            } else {
                low = tried.quality + 1
            }
        }
        // A bisection that never reached the target ends having tried quality 100.
        return try best ?? last ?? encode(100)
    }
}
