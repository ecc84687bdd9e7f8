import Foundation
import Zoetrope

/// `convert --target-quality S`: the lowest `--quality` whose output's mean SSIMULACRA2
/// against the source's frames is at least S, found by bisection over 0–100 (seven or eight
/// encodes), so that a batch of different sources each gets the bytes its content needs.
enum QualitySearch {
    /// The quality chosen and the score it gives; `reached` is false when even quality 100
    /// stays below the target (then 100 is chosen).
    struct Choice: Equatable {
        var quality: Int
        var score: Double
        var reached: Bool
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
        func score(_ quality: Int) throws -> Double {
            var o = options
            o.quality = quality
            let source = try registry.makeFrameSource(data: data, options: decoding)
            let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: o)
            let encoded = try AnimationConversion.run(source: source, writer: writer).data
            let comparison = try AnimationComparison(
                registry.makeFrameSource(data: data, options: reference), registry.makeFrameSource(data: encoded, options: .default))
            guard let mean = comparison.meanSSIMULACRA2 else {
                throw ToolError("--target-quality scores frames of at least 8×8 (SSIMULACRA2); these are \(source.outputSize)")
            }
            return mean
        }
        var low = 0, high = 100
        var best: Choice?, atHundred: Double?
        while low <= high {
            let mid = (low + high) / 2
            let s = try score(mid)
            if mid == 100 { atHundred = s }
            if s >= target {
                best = Choice(quality: mid, score: s, reached: true)
                high = mid - 1
            } else {
                low = mid + 1
            }
        }
        if let best { return best }
        // Bisection that never reached the target ends having scored quality 100.
        return Choice(quality: 100, score: try atHundred ?? score(100), reached: false)
    }
}
