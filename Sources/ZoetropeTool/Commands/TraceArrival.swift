import Foundation
import Zoetrope

/// A file arriving at a fixed rate, for `zoetrope trace --arrival`: the bytes due by each
/// tick go into an incremental session, so stalls at the download edge can be read tick
/// by tick, the same every run.
final class TraceArrival {
    let session: any IncrementalFrameSource
    /// The info of the whole file (for the default length of the trace).
    let wholeInfo: AnimationInfo
    private let data: Data
    private let bytesPerSecond: Int
    private var delivered = 0
    private var finished = false

    /// A session of `data`'s coder (chosen from the whole file's content) that has received nothing yet.
    init(data: Data, name: String, bytesPerSecond: Int, registry: CoderRegistry) throws {
        guard let (coder, result) = registry.sniff(data), case .match(let format, _) = result else {
            throw ToolError("\(name): \(AnimatedImageError.unrecognizedFormat(prefix: Array(data.prefix(16))))")
        }
        guard let incremental = coder as? any IncrementalDecoding else {
            throw ToolError(
                "\(name): \(AnimatedImageError.unsupported(format: format, feature: "incremental decoding (the coder needs the whole file)"))")
        }
        do {
            wholeInfo = try coder.makeFrameSource(data: data, options: .default).info
        } catch {
            throw ToolError("\(name): \(error)")
        }
        session = incremental.makeIncrementalSource(options: .default)
        self.data = data
        self.bytesPerSecond = bytesPerSecond
    }

    /// Nanoseconds until the last byte has arrived.
    var downloadNanoseconds: Int64 {
        Int64(min(Double(data.count) / Double(bytesPerSecond) * 1e9, 1e12).rounded(.up))
    }

    /// Appends the bytes due by `t` nanoseconds (finishing the session with the last) and
    /// says what has arrived. A session that fails keeps its error for the player to report.
    func deliver(until t: Int64) -> (bytes: Int, frames: Int)? {
        let due = Int(min(Int128(t) * Int128(bytesPerSecond) / 1_000_000_000, Int128(data.count)))
        if due > delivered {
            _ = try? data[data.startIndex + delivered..<data.startIndex + due].withUnsafeBytes { try session.append(contentsOf: $0) }
            delivered = due
        }
        if delivered == data.count, !finished {
            finished = true
            _ = try? session.finish()
        }
        return (delivered, session.snapshot.frameCount)
    }
}
