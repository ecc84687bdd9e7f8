import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `audit --for`: what converting to a format would leave out, warned about per file.
@Suite struct AuditTargetFormatTests {
    static let p3 = ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))

    static func frames(_ count: Int) -> [EncodingFrame] {
        (0..<count).map { k in
            var b = PixelBuffer(width: 8, height: 6)
            for y in 0..<6 { for x in 0..<8 { b.setPixel(x: x, y: y, [UInt8(x * 30), UInt8(y * 40), UInt8(k * 90), 255]) } }
            return EncodingFrame(pixels: b, duration: .milliseconds(80))
        }
    }

    /// A folder holding an animated AVIF and an AVIF still, both declaring Display P3 code
    /// points and carrying Exif and XMP.
    private final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-audit-for-\(UUID())").path
        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let encoder = AVIFEncoder(speed: 10)
            let size = PixelSize(width: 8, height: 6)
            let options = EncodingOptions(loopCount: .infinite, color: AuditTargetFormatTests.p3, metadata: ColorFixtures.metadata)
            try encoder.encode(AuditTargetFormatTests.frames(2), canvasSize: size, options: options)
                .write(to: URL(fileURLWithPath: path + "/p3.avif"))
            try encoder.encode(
                AuditTargetFormatTests.frames(1), canvasSize: size,
                options: EncodingOptions(color: AuditTargetFormatTests.p3, metadata: ColorFixtures.metadata)
            )
            .write(to: URL(fileURLWithPath: path + "/still.avif"))
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    private static func run(_ args: [String]) throws -> (status: Int32, stdout: String) {
        final class Lines { var all: [String] = [] }
        let lines = Lines()
        var out = Output(standardOutput: { lines.all.append($0) }, standardError: { lines.all.append("stderr: " + $0) })
        let status = try AuditCommand.run(args, registry: .withBuiltInCoders(), out: &out)
        return (status, lines.all.joined(separator: "\n"))
    }

    @Test func aTargetThatCannotHoldAPartIsWarnedAboutForAnimationsAndStills() throws {
        let folder = try Folder()
        let r = try Self.run([folder.path, "--relative-to", folder.path, "--for", "webp,gif,apng", "--json", "--strict"])
        #expect(r.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["p3.avif", "still.avif"])
        // WebP and GIF keep the code points as an ICC profile, WebP and APNG the Exif and XMP.
        let expected = "gif cannot hold the source's Exif, XMP; converting leaves it out"
        for file in files { #expect(file["warnings"] as? [String] == [expected], "\(file)") }
        #expect(json["stillImages"] as? Int == 0)
    }

    @Test func withoutTargetsOrWithOnesThatHoldEverythingNothingIsWarned() throws {
        let folder = try Folder()
        for extra in [[], ["--for", "apng"], ["--for", "avif,png,webp"]] {
            let r = try Self.run([folder.path, "--relative-to", folder.path, "--json", "--strict"] + extra)
            #expect(r.status == 0, "\(extra)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let files = try #require(json["files"] as? [[String: Any]])
            #expect(files.map { $0["path"] as? String } == ["p3.avif"], "\(extra)")
            #expect(files.first?["warnings"] as? [String] == [], "\(extra)")
            #expect(json["stillImages"] as? Int == 1, "\(extra)")
        }
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let folder = try Folder()
        for bad in ["jpeg", "webp,", "GIF"] {
            #expect(throws: UsageError.self) { _ = try Self.run([folder.path, "--for", bad]) }
        }
        var message = ""
        do { _ = try Self.run([folder.path, "--for", "gif,tiff"]) } catch let error as UsageError { message = error.message }
        #expect(message == "--for takes gif, apng, webp or avif, comma-separated; got 'tiff'")
    }
}
