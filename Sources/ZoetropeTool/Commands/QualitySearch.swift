import Foundation
import Zoetrope
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeQuality

/// `convert --target-quality S`: the setting with the smallest output whose mean
/// SSIMULACRA2 against the source's frames is at least S, found by bisection, so that a
/// batch of different sources each gets the bytes its content needs. WebP and AVIF search
/// `--quality` 0–100 (six or seven encodes); GIF searches `--lossy` over a ladder of 50
/// values from 20,000 down to 0 (five or six).
enum QualitySearch {
    /// The setting chosen, the score it gives and its encoded file; `reached` is false when
    /// even the best setting stays below the target (then that one is chosen).
    struct Choice {
        var setting: Int
        var score: Double
        var reached: Bool
        var output: (data: Data, summary: AnimationConversion.Summary)
    }

    /// What is searched: settings from the smallest output to the most faithful, and the
    /// option they set.
    struct Ladder {
        /// The option's name as the tool spells it: "quality" or "lossy".
        var name: String
        var settings: [Int]
        /// The encoder and options for a setting.
        var make: (Int) -> (encoder: any AnimatedImageEncoder, options: EncodingOptions)
    }

    /// `--lossy` values tried for GIF: 0 and steps of 2^¼ from 5 (a squared-distance step of
    /// 19 %, a distance step of 9 %) up to `GIFEncoder.maxLossy`, strongest first.
    static let lossyLadder: [Int] = {
        var values: Set<Int> = [0, GIFEncoder.maxLossy]
        var n = 5.0
        while n < Double(GIFEncoder.maxLossy) {
            values.insert(Int(n.rounded()))
            n *= 1.189_207_115  // 2^¼
        }
        return values.sorted(by: >)
    }()

    /// The ladder for `encoder`: `--lossy` for a GIF encoder (its dither kept), the quality
    /// option for the others.
    static func ladder(for encoder: any AnimatedImageEncoder, options: EncodingOptions) -> Ladder {
        if let gif = encoder as? GIFEncoder {
            return Ladder(name: "lossy", settings: lossyLadder) { n in
                var e = gif
                e.lossy = n
                return (e, options)
            }
        }
        return Ladder(name: "quality", settings: Array(0...100)) { q in
            var o = options
            o.quality = q
            return (encoder, o)
        }
    }

    /// Encodes `data`'s frames (decoded with `decoding`) at the ladder's settings chosen by
    /// bisection and scores each output against the source.
    static func choose(
        reaching target: Double, data: Data, decoding: DecodingOptions, ladder: Ladder, registry: CoderRegistry
    ) throws -> Choice {
        // The frames the output is judged against: the source as it is encoded from, in RGBA8.
        var reference = decoding
        reference.pixelFormat = .rgba8
        func encode(_ step: Int) throws -> Choice {
            let (encoder, options) = ladder.make(ladder.settings[step])
            let source = try registry.makeFrameSource(data: data, options: decoding)
            let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: options)
            let output = try AnimationConversion.run(source: source, writer: writer)
            let comparison = try AnimationComparison(
                registry.makeFrameSource(data: data, options: reference), registry.makeFrameSource(data: output.data, options: .default))
            guard let mean = comparison.meanSSIMULACRA2 else {
                throw ToolError("--target-quality scores frames of at least 8×8 (SSIMULACRA2); these are \(source.outputSize)")
            }
            return Choice(setting: ladder.settings[step], score: mean, reached: mean >= target, output: output)
        }
        var low = 0, high = ladder.settings.count - 1
        var best: Choice?, last: Choice?
        while low <= high {
            let step = (low + high) / 2
            let tried = try encode(step)
            last = tried
            if tried.reached {
                best = tried
                high = step - 1
            } else {
                low = step + 1
            }
        }
        // A bisection that never reached the target ends having tried the last setting.
        return try best ?? last ?? encode(ladder.settings.count - 1)
    }
}
