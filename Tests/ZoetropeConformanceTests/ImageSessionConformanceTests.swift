import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG
@testable import ZoetropeGIF
@testable import ZoetropeWebP

/// An `AnimatedImage` hands out sessions made from the index it read (GIF, APNG, WebP): over
/// every corpus file, they report the info and decode the frames (or fail) exactly as a
/// fresh open of the bytes does, and two of them share one index rather than reading the
/// file again.
@Suite struct ImageSessionConformanceTests {
    /// The storage of a source's frame records: the same for sessions sharing an index.
    static func indexStorage(_ source: any FrameSource) -> (format: String, address: UInt)? {
        switch source {
        case let s as GIFFrameSource: ("gif", s.index.frames.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
        case let s as APNGFrameSource: ("png", s.index.frames.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
        case let s as WebPFrameSource: ("webp", s.frames.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
        default: nil
        }
    }

    enum Outcome: Equatable {
        case frame(PixelBuffer)
        case error(String)
    }

    static func outcome(_ source: any FrameSource, _ index: Int) -> Outcome {
        do { return .frame(try source.decodeFrame(at: index)) } catch { return .error("\(error)") }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func anImagesSessionsDecodeAsAFreshOpenAndShareItsIndex() throws {
        let registry = CorpusConformanceTests.registry
        var failures: [String] = []
        var sharing: [String: Int] = [:]
        for url in BulkDecodingConformanceTests.files {
            let data = try Data(contentsOf: url)
            guard let image = try? AnimatedImage(data: data, registry: registry) else { continue }
            let name = url.lastPathComponent
            let fresh = try registry.makeFrameSource(data: data, options: .default)
            let a = try image.makeFrameSource(), b = try image.makeFrameSource()
            if a.info != fresh.info { failures.append("\(name): info differs") }
            for i in 0..<fresh.info.frameCount where Self.outcome(a, i) != Self.outcome(fresh, i) {
                failures.append("\(name): frame \(i) differs")
            }
            if let sa = Self.indexStorage(a), let sb = Self.indexStorage(b), sa.address == sb.address {
                sharing[sa.format, default: 0] += 1
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(
            sharing["gif", default: 0] >= 10 && sharing["png", default: 0] >= 10 && sharing["webp", default: 0] >= 2,
            "\(sharing)")
    }
}
