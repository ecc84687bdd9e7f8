import Zoetrope

/// Runs a `BulkFrameDecoder` and the one-frame path over fresh sources of the same image
/// and says where they differ: the bulk path must give exactly the frames (every byte, size
/// and format) and the error of decoding one frame after another.
public struct BulkDecodingCheck {
    /// What one run delivered: each frame's pixels, then the error that ended it, if any.
    public struct Outcome: Equatable, Sendable {
        /// The frames, in order, with their indices.
        public var frames: [(index: Int, pixels: PixelBuffer)]
        /// The error that ended the run, as text (nil when every frame decoded).
        public var error: String?
        /// Threads the run used (1 for the one-frame path).
        public var threads: Int

        public static func == (a: Outcome, b: Outcome) -> Bool {
            a.error == b.error && a.frames.count == b.frames.count
                && zip(a.frames, b.frames).allSatisfy { $0.index == $1.index && $0.pixels == $1.pixels }
        }
    }

    /// Makes a fresh source over the image.
    public var makeSource: () throws -> any FrameSource
    /// Workers for any canvas and never stopped, so small fixtures run the parallel path.
    package var tuning = BulkTuning.alwaysParallel

    /// A check over the sources `makeSource` makes.
    public init(makeSource: @escaping () throws -> any FrameSource) {
        self.makeSource = makeSource
    }

    /// Frames `range` (default: all) decoded with `decodeFrame(at:into:)`, one after another,
    /// into one reused buffer, copied out as they come.
    public func oneByOne(_ range: Range<Int>? = nil) throws -> Outcome {
        let source = try makeSource()
        var buffer = PixelBuffer()
        var outcome = Outcome(frames: [], error: nil, threads: 1)
        for i in range ?? 0..<source.info.frameCount {
            do {
                try source.decodeFrame(at: i, into: &buffer)
            } catch {
                outcome.error = "\(error)"
                break
            }
            outcome.frames.append((i, buffer))
        }
        return outcome
    }

    /// The same frames from a `BulkFrameDecoder` on `threads` threads, into one reused
    /// buffer (so a frame delivered by swapping storage is checked too).
    public func bulk(_ range: Range<Int>? = nil, threads: Int) throws -> Outcome {
        let source = try makeSource()
        let run = BulkFrameDecoder(source: source, frames: range, threads: threads, tuning: tuning)
        var buffer = PixelBuffer()
        var outcome = Outcome(frames: [], error: nil, threads: run.threadCount)
        do {
            while let i = try run.nextFrame(into: &buffer) { outcome.frames.append((i, buffer)) }
        } catch {
            outcome.error = "\(error)"
        }
        return outcome
    }

    /// One line per thread count whose run differs from the one-frame path (empty when all
    /// agree), naming the first frame that differs.
    public func violations(_ range: Range<Int>? = nil, threads: [Int] = [1, 2, 4]) throws -> [String] {
        let reference = try oneByOne(range)
        var lines: [String] = []
        for t in threads {
            let got = try bulk(range, threads: t)
            guard got != reference else { continue }
            if got.frames.count != reference.frames.count {
                lines.append("\(t) threads: \(got.frames.count) frames, one by one \(reference.frames.count)")
            } else if let k = got.frames.indices.first(where: {
                got.frames[$0].index != reference.frames[$0].index || got.frames[$0].pixels != reference.frames[$0].pixels
            }) {
                lines.append("\(t) threads: frame \(got.frames[k].index) differs")
            } else {
                lines.append("\(t) threads: error \(got.error ?? "none"), one by one \(reference.error ?? "none")")
            }
        }
        return lines
    }
}
