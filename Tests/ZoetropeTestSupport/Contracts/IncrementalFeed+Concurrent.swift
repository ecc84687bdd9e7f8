import Foundation
import Zoetrope

extension IncrementalFeed {
    /// A download task appends `data` to a session of `coder` in pieces of `step` bytes,
    /// yielding after each, while a player task decodes every frame as soon as it has
    /// arrived, retrying while it throws `.frameNotYetAvailable` (which must name fewer
    /// complete frames than the one asked for). Every frame must be the whole-file frame,
    /// and `finish()` must give the whole-file info. Returns what went wrong, one line each.
    public static func concurrently(_ coder: some IncrementalDecoding, data: Data, step: Int) async -> [String] {
        let expected: [PixelBuffer], info: AnimationInfo
        do {
            let whole = try coder.makeFrameSource(data: data, options: .default)
            info = whole.info
            expected = try (0..<info.frameCount).map { try whole.decodeFrame(at: $0) }
        } catch {
            return ["the whole file: \(error)"]
        }
        let source = coder.makeIncrementalSource(options: .default)
        let bytes = [UInt8](data)
        async let download: [String] = {
            do {
                for start in stride(from: 0, to: bytes.count, by: step) {
                    try source.append(bytes[start..<min(bytes.count, start + step)])
                    await Task.yield()
                }
                return []
            } catch {
                return ["append: \(error)"]
            }
        }()
        async let player: [String] = {
            var problems: [String] = []
            var shown = 0
            while shown < expected.count {
                do {
                    let frame = try source.decodeFrame(at: shown)
                    if frame != expected[shown] { problems.append("frame \(shown) differs from the whole-file frame") }
                    shown += 1
                } catch {
                    guard case .frameNotYetAvailable(shown, let available)? = error as? AnimatedImageError,
                        available <= shown
                    else {
                        return problems + ["frame \(shown): \(error)"]
                    }
                    try? await Task.sleep(nanoseconds: 100_000)
                }
            }
            return problems
        }()
        var problems = await download
        problems += await player
        do {
            let finished = try source.finish()
            if finished != info { problems.append("finish() gave \(finished), the whole file \(info)") }
        } catch {
            problems.append("finish(): \(error)")
        }
        return problems
    }
}
