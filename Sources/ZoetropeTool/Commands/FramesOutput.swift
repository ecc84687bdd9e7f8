import Foundation
import Zoetrope
import ZoetropeAPNG

/// What `frames --output DIR` writes: `frame-NNNN.png` per frame and `manifest.json`. The
/// whole-file and the standard-input paths both write through it, so they write the same bytes.
struct FramesOutput {
    /// The output folder.
    let directory: String
    private let encoder = PNGEncoder()

    /// The file name of frame `index`.
    static func frameName(_ index: Int) -> String {
        "frame-\(String(index).leftPad(4)).png"
    }

    /// The path of frame `index`'s PNG.
    func framePath(_ index: Int) -> String {
        directory + "/" + Self.frameName(index)
    }

    /// Creates the folder (and its parents) when missing.
    func createDirectory() throws {
        try OutputFolder.create(directory)
    }

    /// Writes frame `index` as PNG.
    func writeFrame(_ buffer: PixelBuffer, index: Int) throws {
        let png = try encoder.encode(buffer)
        guard FileManager.default.createFile(atPath: framePath(index), contents: png) else {
            throw ToolError("\(directory)/\(Self.frameName(index)): cannot write")
        }
    }

    /// Frame `index`'s manifest entry.
    static func entry(index: Int, rawDuration raw: FrameDuration) -> JSONValue {
        .object([
            ("file", .string(frameName(index))),
            ("durationMs", Formatting.millisecondsJSON(raw)),
            ("displayDurationMs", Formatting.millisecondsJSON(DelayPolicy.default.displayDuration(for: raw))),
        ])
    }

    /// Writes `manifest.json` for the frames `entries` describe; prints each of the info's
    /// warnings on standard error.
    func writeManifest(
        info: AnimationInfo, outputSize: PixelSize, entries: [JSONValue], warning: String?,
        name: String, out: inout Output
    ) throws {
        var manifest: [(String, JSONValue)] = [
            ("format", .string(info.format.identifier)),
            // The source's size, not the buffer's: a frame that failed may have left it empty.
            ("width", .int(outputSize.width)),
            ("height", .int(outputSize.height)),
            ("frameCount", .int(entries.count)),
            ("plays", Formatting.playsJSON(info.loopCount)),
            ("frames", .array(entries)),
        ]
        if let warning { manifest.append(("warning", .string(warning))) }
        if !info.warnings.isEmpty { manifest.append(("warnings", .array(info.warnings.map { .string($0) }))) }
        for w in info.warnings { out.error("zoetrope: warning: \(name): \(w)") }
        let text = JSONValue.object(manifest).serialized() + "\n"
        guard FileManager.default.createFile(atPath: directory + "/manifest.json", contents: Data(text.utf8)) else {
            throw ToolError("\(directory)/manifest.json: cannot write")
        }
        if let warning { out.error("zoetrope: warning: \(name): \(warning); wrote the \(entries.count) frames before it") }
    }
}
