import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

/// `convert` keeps the displayed timeline: identical frames of 0 ms or 10 ms (each shown
/// 100 ms) still show 100 ms each after conversion, merged or not.
@Suite struct ConvertTimelineTests {
    /// Red 0 ms, red 0 ms, green 10 ms, green 10 ms, blue 50 ms: displayed 200 + 200 + 50 ms.
    static func gif() -> Data {
        var w = GIFWriter(width: 8, height: 8, globalColors: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)])
        w.loop(0)
        for (index, centiseconds) in [(0, 0), (0, 0), (1, 1), (1, 1), (2, 5)] as [(UInt8, Int)] {
            w.graphicControl(delay: centiseconds)
            w.image(width: 8, height: 8, indices: [UInt8](repeating: index, count: 64))
        }
        return Data(w.file)
    }

    /// How long each picture shows, in ms: runs of frames within `tolerance` of each other
    /// (lossy AVIF) summed under the default delay policy.
    static func displayedRuns(_ data: Data) throws -> [Double] {
        let decoded = try ConvertFixtures.decode(data)
        let shown = decoded.info.displayDurations().map { Double($0.numerator) * 1000 / Double($0.denominator) }
        var runs: [Double] = [], last: [UInt8]?
        for (frame, ms) in zip(decoded.frames, shown) {
            let pixel = frame.pixel(x: 4, y: 4)
            if let l = last, zip(l, pixel).allSatisfy({ abs(Int($0) - Int($1)) <= 32 }) {
                runs[runs.count - 1] += ms
            } else {
                runs.append(ms)
            }
            last = pixel
        }
        return runs
    }

    @Test func theSourceShowsTwoHundredTwoHundredFifty() throws {
        #expect(try Self.displayedRuns(Self.gif()) == [200, 200, 50])
    }

    @Test(arguments: ["gif", "png", "webp", "avif"])
    func convertKeepsTheDisplayedTimeline(format: String) throws {
        let (run, output, dir) = try ConvertFixtures.convert(Self.gif(), inName: "in.gif", outName: "out.\(format)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        let data = try #require(output)
        #expect(try Self.displayedRuns(data) == [200, 200, 50])
    }
}
