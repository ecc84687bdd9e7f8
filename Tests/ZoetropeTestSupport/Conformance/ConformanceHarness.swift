import Foundation
import Zoetrope

/// Runs corpus cases in-process through a registry, with the rules of
/// `shared/corpus/check_expectations.py`: exact format/size/count/plays, durations within
/// ±0.5 ms, display durations after the default delay policy, and frames compared with
/// colour premultiplied by alpha within the case's tolerance.
public struct ConformanceHarness: Sendable {
    public let registry: CoderRegistry
    /// Decodes an expected-frame PNG into straight RGBA8. nil (for a test target without a
    /// PNG decoder) skips the reference frames; every other check still runs.
    public let referenceDecoder: (@Sendable (Data) throws -> PixelBuffer)?

    public init(registry: CoderRegistry, referenceDecoder: (@Sendable (Data) throws -> PixelBuffer)?) {
        self.registry = registry
        self.referenceDecoder = referenceDecoder
    }

    /// nil when the case passes, else why it failed.
    public func check(_ c: CorpusCase) -> String? {
        let data: Data
        do { data = try Data(contentsOf: c.input) } catch { return "cannot read input: \(error)" }
        let source: any FrameSource
        var decoded: [PixelBuffer] = []
        do {
            source = try registry.makeFrameSource(data: data)
            for i in 0..<source.info.frameCount { decoded.append(try source.decodeFrame(at: i)) }
            if decoded.isEmpty { throw AnimatedImageError.invalidData(format: source.info.format, reason: "no frames") }
        } catch {
            // A failure after good frames is a truncation: the tool writes those frames.
            if c.mustFail || c.mayFail, decoded.isEmpty { return nil }
            if decoded.isEmpty { return "decoding failed: \(error)" }
            return c.mustFail ? "expected a failure, but \(decoded.count) frames decoded" : "frame \(decoded.count) failed: \(error)"
        }
        if c.mustFail { return "expected a failure, but it decoded \(decoded.count) frames" }
        let info = source.info
        var problems: [String] = []
        if let f = c.format, f.lowercased() != info.format.identifier { problems.append("format \(info.format) != \(f)") }
        if let w = c.width, w != info.canvasSize.width { problems.append("width \(info.canvasSize.width) != \(w)") }
        if let h = c.height, h != info.canvasSize.height { problems.append("height \(info.canvasSize.height) != \(h)") }
        if let n = c.frameCount, n != decoded.count { problems.append("frameCount \(decoded.count) != \(n)") }
        if let p = c.plays, p != info.loopCount.description { problems.append("plays \(info.loopCount) != \(p)") }
        if let want = c.durationsMs {
            let got = info.frameDurations.prefix(decoded.count).map(\.milliseconds)
            if got.count != want.count || zip(got, want).contains(where: { abs($0 - $1) > 0.5 }) {
                problems.append("durations \(got) != \(want)")
            } else {
                let display = info.displayDurations().prefix(decoded.count).map(\.milliseconds)
                let wantDisplay = want.map { $0 <= 10 ? 100 : $0 }
                if zip(display, wantDisplay).contains(where: { abs($0 - $1) > 0.5 }) {
                    problems.append("display durations \(display) != \(wantDisplay)")
                }
            }
        }
        if !problems.isEmpty { return problems.joined(separator: "; ") }
        for (i, rel) in c.frames.enumerated() {
            guard i < decoded.count else { return "frame \(i) missing" }
            guard let referenceDecoder else { break }
            let expected: PixelBuffer
            do { expected = try referenceDecoder(Data(contentsOf: c.folder.appendingPathComponent(rel))) } catch {
                return "cannot decode reference \(rel): \(error)"
            }
            if let why = PixelComparison.firstMismatch(expected: expected, got: decoded[i], tolerance: c.tolerance) {
                return "frame \(i): \(why)"
            }
        }
        for chk in c.pixelChecks {
            guard chk.frame < decoded.count else { return "pixel check on missing frame \(chk.frame)" }
            let got = decoded[chk.frame].pixel(x: chk.x, y: chk.y)
            if PixelComparison.difference(chk.rgba, got) > c.tolerance {
                return "pixel (\(chk.x),\(chk.y)) of frame \(chk.frame) is \(got), expected \(chk.rgba)"
            }
        }
        return nil
    }

    /// Checks every case under `subfolder`; returns the failures as "case: reason".
    public func failures(in root: URL, under subfolder: String) throws -> (checked: Int, failures: [String]) {
        let cases = try CorpusCase.all(in: root, under: subfolder)
        var failures: [String] = []
        for c in cases {
            if let why = check(c) { failures.append("\(c.name): \(why)\(c.policy.isEmpty ? "" : " [policy: \(c.policy)]")") }
        }
        return (cases.count, failures)
    }
}
