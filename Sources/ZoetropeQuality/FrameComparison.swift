import Zoetrope

/// One frame of two animations compared on their composited canvases (straight-alpha RGBA8).
///
/// A pixel that is fully transparent in both counts as equal whatever its colour channels
/// hold (encoders may keep or drop the colour of a transparent pixel); any other pixel is
/// compared on all four channels.
public struct FrameComparison: Hashable, Sendable {
    /// The frame's index in both animations.
    public let index: Int
    /// The largest difference of one channel of one pixel, 0 to 255.
    public let maxChannelDifference: Int
    /// How many pixels differ in at least one channel.
    public let differingPixelCount: Int
    /// The sum of the squared channel differences.
    public let squaredError: UInt64
    /// How many channel values were compared (pixels × 4).
    public let sampleCount: Int
    /// The frame's raw duration in the first and in the second animation.
    public let durations: [FrameDuration]
    /// The frame's displayed duration (after the comparison's delay policy) in each.
    public let displayedDurations: [FrameDuration]
    /// The SSIMULACRA2 score of the second frame against the first (`SSIMULACRA2`): 100 for
    /// identical frames, about 90 visually lossless, 70 high quality, 50 medium; nil when the
    /// frame is under 8×8 or the comparison was made without it.
    public let ssimulacra2: Double?

    /// Creates a frame comparison from its measurements.
    public init(
        index: Int, maxChannelDifference: Int, differingPixelCount: Int, squaredError: UInt64, sampleCount: Int,
        durations: [FrameDuration], displayedDurations: [FrameDuration], ssimulacra2: Double? = nil
    ) {
        self.index = index
        self.maxChannelDifference = maxChannelDifference
        self.differingPixelCount = differingPixelCount
        self.squaredError = squaredError
        self.sampleCount = sampleCount
        self.durations = durations
        self.displayedDurations = displayedDurations
        self.ssimulacra2 = ssimulacra2
    }

    /// Whether every pixel is equal.
    public var isIdentical: Bool { maxChannelDifference == 0 }

    /// The peak signal-to-noise ratio in decibels over the four channels (peak 255):
    /// `+infinity` for identical frames.
    public var psnr: Double { AnimationComparison.psnr(squaredError: squaredError, samples: sampleCount) }
}

extension FrameComparison {
    /// Compares two straight-alpha canvases of the same size.
    static func measure(_ a: PixelBuffer, _ b: PixelBuffer)
        -> (maxChannelDifference: Int, differingPixelCount: Int, squaredError: UInt64, sampleCount: Int)
    {
        precondition(a.size == b.size, "compared canvases must have one size")
        let width = a.width, height = a.height, strideA = a.bytesPerRow, strideB = b.bytesPerRow
        var maxDifference: Int32 = 0, differing = 0, squared: UInt64 = 0
        a.bytes.withUnsafeBytes { rawA in
            b.bytes.withUnsafeBytes { rawB in
                guard let baseA = rawA.baseAddress, let baseB = rawB.baseAddress else { return }
                for y in 0..<height {
                    let rowA = (baseA + y * strideA).assumingMemoryBound(to: UInt8.self)
                    let rowB = (baseB + y * strideB).assumingMemoryBound(to: UInt8.self)
                    var rowSquared: UInt64 = 0
                    for x in 0..<width {
                        let o = x * 4
                        if rowA[o + 3] == 0 && rowB[o + 3] == 0 { continue }
                        let dr = Int32(rowA[o]) - Int32(rowB[o]), dg = Int32(rowA[o + 1]) - Int32(rowB[o + 1])
                        let db = Int32(rowA[o + 2]) - Int32(rowB[o + 2]), da = Int32(rowA[o + 3]) - Int32(rowB[o + 3])
                        let d = max(max(abs(dr), abs(dg)), max(abs(db), abs(da)))
                        if d != 0 {
                            differing += 1
                            maxDifference = max(maxDifference, d)
                            rowSquared += UInt64(dr * dr + dg * dg + db * db + da * da)
                        }
                    }
                    squared += rowSquared
                }
            }
        }
        return (Int(maxDifference), differing, squared, width * height * 4)
    }
}
