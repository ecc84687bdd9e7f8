import Foundation
import Zoetrope

/// `frames - --output DIR` (or a URL) over a coder that decodes incrementally: each frame's
/// PNG is written as soon as the frame's bytes have all arrived, the manifest once the input
/// ends. The folder ends up with the same files, byte for byte, as `frames FILE --output DIR`
/// on the same bytes:
/// - frames the source withdraws (an APNG whose animation chunks turn out broken is shown as
///   its still image; a progressive JPEG at each scan that refines its picture;
///   `IncrementalSnapshot.revision` grows) are deleted and written again;
/// - a frame that fails to decode stops the frames there, as the whole-file path stops;
/// - input the whole-file path cannot open at all (a broken header, a passed limit, a file
///   cut inside its first frame) makes the frames written so far be deleted again, and the
///   folder too when this run created it and it is empty, so only the error line remains.
struct FramesStream {
    private let session: any IncrementalFrameSource
    private let output: FramesOutput
    private let reader: StandardInputReader
    private var name: String { reader.name }
    /// Frames `0..<written` are on disk, as of snapshot revision `revision`.
    private var written = 0
    private var revision = 0
    /// Why decoding stopped before the frames known so far (what the whole-file path reports).
    private var failure: String?
    /// Whether the folder was there before this run.
    private let directoryExisted: Bool
    /// Set when writing (not decoding) failed: the frames written stay, as they do on the whole-file path.
    private var writeFailed = false
    private var buffer = PixelBuffer()

    init(session: any IncrementalFrameSource, output: FramesOutput, reader: StandardInputReader = StandardInputReader()) {
        self.session = session
        self.reader = reader
        self.output = output
        directoryExisted = FileManager.default.fileExists(atPath: output.directory)
    }

    /// Reads the input to its end, writing frames as they complete, then the manifest.
    mutating func run(out: inout Output) throws -> Int32 {
        let info: AnimationInfo
        do {
            try advance(to: session.snapshot)  // the first bytes may already hold frames
            try StandardInputSource.feed(session, from: reader) { try advance(to: $0) }
            info = try StandardInputSource.finish(session, name: name)
            try advance(to: session.snapshot)
            guard info.frameCount > 0 else {
                throw ToolError("\(name): \(info.truncation?.description ?? "the image has no frames")")
            }
        } catch {
            if !writeFailed { discardFrames() }
            throw error
        }
        try output.createDirectory()
        if written == 0, let failure { throw ToolError("\(name): \(failure)") }
        let entries = (0..<written).map { FramesOutput.entry(index: $0, rawDuration: info.frameDurations[$0]) }
        let outputSize = session.frameSource()?.outputSize ?? info.canvasSize
        // What decoding alone found (a JPEG's concealed data errors), as on the whole-file path.
        var shown = info
        shown.warnings += (session as? any IncrementalDecodeWarningReporting)?.decodeWarnings ?? []
        try output.writeManifest(
            info: shown, outputSize: outputSize, entries: entries,
            warning: failure ?? info.truncation?.description, name: name, out: &out)
        return 0
    }

    /// Brings the files up to `snapshot`: drops withdrawn frames and writes the new ones.
    private mutating func advance(to snapshot: IncrementalSnapshot) throws {
        if snapshot.revision != revision {
            removeFrames(from: 0)
            failure = nil
            revision = snapshot.revision
        }
        if snapshot.frameCount < written { removeFrames(from: snapshot.frameCount) }
        guard failure == nil else { return }
        while written < snapshot.frameCount {
            do {
                try session.decodeFrame(at: written, into: &buffer)
            } catch AnimatedImageError.frameNotYetAvailable {
                return
            } catch {
                failure = "\(error)"
                return
            }
            do {
                if written == 0 { try output.createDirectory() }
                try output.writeFrame(buffer, index: written)
            } catch {
                writeFailed = true
                throw error
            }
            written += 1
        }
    }

    /// Deletes the PNGs of frames `start..<written`.
    private mutating func removeFrames(from start: Int) {
        for i in start..<max(start, written) { try? FileManager.default.removeItem(atPath: output.framePath(i)) }
        written = min(written, start)
    }

    /// Deletes every frame written, and the folder when this run made it and it is empty.
    private mutating func discardFrames() {
        removeFrames(from: 0)
        if !directoryExisted { _ = rmdir(output.directory) }
    }
}
