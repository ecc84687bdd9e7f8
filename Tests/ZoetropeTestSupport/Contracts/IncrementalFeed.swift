import Foundation
import Zoetrope

/// Feeds a file to an incremental source in equal pieces and checks it against the
/// whole-file source of the same coder: every frame reported complete decodes (at the
/// append that reported it) to the whole-file frame's exact pixels, a frame past those
/// throws `.frameNotYetAvailable` while more may come, and `finish()` gives the whole-file
/// info (or the whole-file error).
public struct IncrementalFeed {
    /// What a feed found wrong, one line each; empty when it matched.
    public private(set) var problems: [String] = []
    /// Frames checked pixel for pixel against the whole-file frames.
    public private(set) var framesChecked = 0
    /// Frames that were reported and later withdrawn (an APNG falling back to its still image).
    public private(set) var framesWithdrawn = 0

    /// Runs one feed of `data` through `coder` in pieces of `step` bytes.
    public init(_ coder: some IncrementalDecoding, data: Data, step: Int, options: DecodingOptions = .default) {
        let bytes = [UInt8](data)
        // The whole-file result.
        var whole: Result<(AnimationInfo, [PixelBuffer]), AnimatedImageError>
        do {
            let source = try coder.makeFrameSource(data: data, options: options)
            whole = .success((source.info, try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }))
        } catch {
            whole = .failure(error as? AnimatedImageError ?? .invalidArgument("\(error)"))
        }
        let source = coder.makeIncrementalSource(options: options)
        var reported: [(revision: Int, index: Int, pixels: PixelBuffer)] = []
        var known = 0, revision = 0
        var outcome: Result<AnimationInfo, AnimatedImageError>?
        var offset = 0
        while offset < bytes.count, outcome == nil {
            let end = min(bytes.count, offset + step)
            do {
                let snapshot = try bytes[offset..<end].withUnsafeBytes { try source.append(contentsOf: $0) }
                if snapshot.revision != revision {
                    framesWithdrawn += known
                    revision = snapshot.revision
                    known = 0
                }
                if snapshot.frameCount > known {
                    for i in known..<snapshot.frameCount {
                        do {
                            reported.append((revision, i, try source.decodeFrame(at: i)))
                        } catch {
                            problems.append("frame \(i) reported at byte \(end) does not decode: \(error)")
                        }
                    }
                    known = snapshot.frameCount
                    if snapshot.state == .receiving {
                        expectNotYet(source, index: known)
                    }
                }
                if snapshot.state != .receiving, case .complete = snapshot.state {
                    outcome = .success(try source.finish())
                }
            } catch {
                outcome = .failure(error as? AnimatedImageError ?? .invalidArgument("\(error)"))
            }
            offset = end
        }
        if outcome == nil {
            do { outcome = .success(try source.finish()) } catch {
                outcome = .failure(error as? AnimatedImageError ?? .invalidArgument("\(error)"))
            }
        }
        switch (whole, outcome!) {
        case (.failure(let expected), .failure(let got)):
            if expected != got { problems.append("error \(got), the whole file gives \(expected)") }
        case (.failure(let expected), .success):
            problems.append("decoded, the whole file fails with \(expected)")
        case (.success, .failure(let got)):
            problems.append("fails with \(got), the whole file decodes")
        case (.success(let (info, frames)), .success(let got)):
            if got != info { problems.append("info \(got), the whole file gives \(info)") }
            if source.snapshot.info != info { problems.append("final snapshot info \(String(describing: source.snapshot.info))") }
            let finalRevision = source.snapshot.revision
            for r in reported where r.revision == finalRevision {
                guard r.index < frames.count else {
                    problems.append("frame \(r.index) was reported but the whole file has \(frames.count)")
                    continue
                }
                if r.pixels != frames[r.index] { problems.append("frame \(r.index) differs from the whole-file frame") }
                framesChecked += 1
            }
            if reported.filter({ $0.revision == finalRevision }).count != frames.count {
                problems.append("\(reported.filter { $0.revision == finalRevision }.count) frames reported, the whole file has \(frames.count)")
            }
            // After finish, every frame decodes in order, as from the whole file.
            for (i, frame) in frames.enumerated() where (try? source.decodeFrame(at: i)) != frame {
                problems.append("after finish, frame \(i) differs")
            }
        }
    }

    private mutating func expectNotYet(_ source: any IncrementalFrameSource, index: Int) {
        do {
            _ = try source.decodeFrame(at: index)
            problems.append("frame \(index) decoded before it was reported complete")
        } catch let error as AnimatedImageError {
            if error != .frameNotYetAvailable(index: index, availableFrames: index) {
                problems.append("frame \(index) not yet complete throws \(error)")
            }
        } catch {
            problems.append("frame \(index) not yet complete throws \(error)")
        }
    }
}
