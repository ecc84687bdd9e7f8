import Zoetrope

/// What `zoetrope bench` measured for one input.
struct BenchResult {
    var name: String
    var info: AnimationInfo
    /// Frames decoded in the timed passes (every frame of every pass).
    var framesDecoded: Int
    /// Full passes over the animation in the timed run.
    var passes: Int
    /// Wall time of the timed run.
    var seconds: Double
    /// Threads the timed passes decoded on (1: one frame after another).
    var threads: Int
    /// From the encoded bytes to the first composited canvas, in a fresh session.
    var firstFrameSeconds: Double
    /// The process's peak resident size while this input was measured.
    var peakMemoryBytes: Int
    /// Bytes the decoding session itself held after a full pass (canvas, saved regions, codec state).
    var sessionBytes: Int
    /// The most bytes the player held in one play under each buffer policy, by policy name.
    var bytesHeld: [(policy: String, bytes: Int)]
    /// A truncation or decode failure met after some frames; those frames were still measured.
    var warning: String?

    var framesPerSecond: Double { seconds > 0 ? Double(framesDecoded) / seconds : 0 }

    var megapixelsPerSecond: Double {
        Double(info.canvasSize.pixelCount ?? 0) * framesPerSecond / 1_000_000
    }
}
