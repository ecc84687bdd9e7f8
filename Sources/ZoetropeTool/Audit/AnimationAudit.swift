import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeWebP

/// Finds animated images under some paths and says what playing each costs and what
/// looks wrong, using only what the registered coders report.
///
/// Content decides the format; the extension is only checked against it. Still images
/// are counted, not listed, unless something about them needs a warning.
struct AnimationAudit {
    let registry: CoderRegistry
    /// Decoded size of all frames above which a file gets a warning.
    var largeDecodedBytes = 64 << 20
    /// Paths in rows are shown relative to this folder when they are inside it.
    var base: String?
    /// The folder of the disk cache for http(s) paths (`--cache`), if any.
    var cache: String?
    /// Formats a conversion may target (`--for`): a file whose colour description or
    /// metadata one of them cannot hold gets a warning naming what would be left out.
    var targets: [any AnimatedImageEncoder] = []

    /// The default encoders of a comma-separated list of format names (`--for`).
    static func encoders(named list: String) throws(UsageError) -> [any AnimatedImageEncoder] {
        try list.split(separator: ",", omittingEmptySubsequences: false).map { name throws(UsageError) -> any AnimatedImageEncoder in
            switch name {
            case "gif": GIFEncoder()
            case "apng", "png": APNGEncoder()
            case "webp": WebPEncoder()
            case "avif": AVIFEncoder()
            default: throw UsageError("--for takes gif, apng, webp or avif, comma-separated; got '\(name)'")
            }
        }
    }

    /// What an audit found.
    struct Report {
        var rows: [AuditRow] = []
        /// Recognised single-frame images with nothing to warn about.
        var stillImages = 0
        /// Files looked at.
        var filesScanned = 0
        var warningCount: Int { rows.reduce(0) { $0 + $1.warnings.count + ($1.error == nil ? 0 : 1) } }
    }

    /// Scans files and folders (recursively, skipping hidden entries and `.build`), and
    /// http(s) URLs.
    func run(paths: [String]) throws -> Report {
        var report = Report()
        for path in paths {
            if URLInput.isURL(path) {
                // The body, whole: a failed download is the tool's one-line error.
                let reader = try URLInput.reader(for: path, cache: cache)
                let data = try reader.readToEnd()
                report.filesScanned += 1
                let ext = URL(string: path).map { $0.pathExtension.lowercased() } ?? ""
                switch audit(data: data, shown: path, ext: ext) {
                case .listed(let row): report.rows.append(row)
                case .still: report.stillImages += 1
                case .notAnImage: break
                }
                continue
            }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw ToolError("\(path): no such file or folder")
            }
            let files = isDir.boolValue ? Self.files(under: path) : [path]
            for file in files {
                report.filesScanned += 1
                switch audit(file: file) {
                case .listed(let row): report.rows.append(row)
                case .still: report.stillImages += 1
                case .notAnImage: break
                }
            }
        }
        return report
    }

    /// What the audit makes of one file.
    enum Outcome {
        /// Animated, or something to warn about.
        case listed(AuditRow)
        /// A recognised single-frame image with nothing to warn about.
        case still
        /// Neither recognised nor named like an image.
        case notAnImage
    }

    /// Every regular file under `folder`, sorted, skipping hidden entries and build folders.
    static func files(under folder: String) -> [String] {
        let url = URL(fileURLWithPath: folder)
        guard
            let e = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var out: [String] = []
        for case let item as URL in e {
            let values = try? item.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true, item.lastPathComponent == ".build" || item.lastPathComponent == ".swiftpm" {
                e.skipDescendants()
                continue
            }
            if values?.isRegularFile == true {
                out.append(folder.hasSuffix("/") ? folder + relative(item, to: url) : folder + "/" + relative(item, to: url))
            }
        }
        return out.sorted()
    }

    private static func relative(_ item: URL, to base: URL) -> String {
        let b = base.standardizedFileURL.path, p = item.standardizedFileURL.path
        return p.hasPrefix(b + "/") ? String(p.dropFirst(b.count + 1)) : item.lastPathComponent
    }

    /// What one file is: a row to list, an unremarkable still, or not an image.
    func audit(file: String) -> Outcome {
        let shown = display(file)
        let ext = (file as NSString).pathExtension.lowercased()
        guard let data = FileManager.default.contents(atPath: file) else {
            return claimed(ext).isEmpty ? .notAnImage : .listed(AuditRow(path: shown, error: "cannot read the file"))
        }
        return audit(data: data, shown: shown, ext: ext)
    }

    /// The formats whose file extensions include `ext`.
    private func claimed(_ ext: String) -> [ImageFormat] {
        ext.isEmpty ? [] : registry.coders.flatMap(\.formats).filter { $0.fileExtensions.contains(ext) }
    }

    /// What the bytes of one file (or URL) are, shown as `shown`, named with extension `ext`.
    func audit(data: Data, shown: String, ext: String) -> Outcome {
        let claimed = claimed(ext)
        guard let format = registry.format(of: data) else {
            guard !claimed.isEmpty else { return .notAnImage }
            var row = AuditRow(path: shown)
            row.warnings.append("the extension says \(ext) but no registered coder recognises the content")
            return .listed(row)
        }
        var row = AuditRow(path: shown, format: format)
        if !ext.isEmpty, !format.fileExtensions.contains(ext) {
            row.warnings.append("content is \(format.identifier) but the extension says \(ext)")
        }
        let info: AnimationInfo
        do {
            info = try registry.makeFrameSource(data: data).info
        } catch {
            row.error = "cannot decode: \(error)"
            return .listed(row)
        }
        row.format = info.format
        row.info = info
        // What `convert` would leave out for each target, as it warns (its default keeps
        // the source's description and metadata).
        let kept = AnimationConversion.DescriptionPolicy().encodingOptions(EncodingOptions(), source: info)
        for target in targets {
            var written = kept
            written.color = ConvertCommand.keptColor(kept.color, of: info, by: target)
            let lost = AnimationConversion.unwrittenParts(of: written, by: target)
            if !lost.isEmpty {
                row.warnings.append(
                    "\(target.encodingFormat) cannot hold the source's \(lost.names.joined(separator: ", ")); converting leaves it out")
            }
        }
        let declaresAnimation = info.format == .apng || info.storedLoopValue != nil
        if info.frameCount <= 1 {
            if declaresAnimation {
                row.warnings.append("an animated \(info.format.identifier) holding a single frame")
            } else if row.warnings.isEmpty && info.truncation == nil && info.warnings.isEmpty {
                return .still
            }
        }
        // A still's duration never plays: no clamped delay to warn about.
        let clamped = row.clampedDelays
        if clamped > 0, info.frameCount > 1 {
            row.warnings.append("\(clamped) of \(info.frameCount) delays are 10 ms or less and play as 100 ms")
        }
        if let all = row.allFramesBytes, all > largeDecodedBytes {
            row.warnings.append("decoding all frames takes \(Formatting.bytes(all)), over \(Formatting.bytes(largeDecodedBytes))")
        }
        if let t = info.truncation { row.warnings.append("truncated: \(t)") }
        row.warnings += info.warnings
        return .listed(row)
    }

    private func display(_ file: String) -> String {
        guard let base else { return file }
        let b = URL(fileURLWithPath: base).standardizedFileURL.path
        let p = URL(fileURLWithPath: file).standardizedFileURL.path
        return p.hasPrefix(b + "/") ? String(p.dropFirst(b.count + 1)) : file
    }
}
