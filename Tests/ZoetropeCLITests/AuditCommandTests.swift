import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs

@testable import ZoetropeTool

@Suite struct AuditCommandTests {
    /// A folder of made-up images (see `AuditTestCoder`) and a text file.
    private final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-audit-\(UUID())").path
        init() throws {
            try FileManager.default.createDirectory(atPath: path + "/art/.hidden", withIntermediateDirectories: true)
            let files: [String: Data] = [
                "art/spin.zfk": AuditTestCoder.file(width: 8, height: 8, delaysMs: [10, 50, 0, 50], storedLoop: 0),
                "art/wrong.gif": AuditTestCoder.file(width: 4, height: 4, delaysMs: [100, 100], storedLoop: nil),
                "art/one.zfk": AuditTestCoder.file(width: 3, height: 3, delaysMs: [500], storedLoop: 0),
                "art/still.zfk": AuditTestCoder.file(width: 2, height: 2, delaysMs: [0], storedLoop: nil),
                "art/big.zfk": AuditTestCoder.file(width: 4096, height: 4096, delaysMs: [100, 100], storedLoop: 2),
                "art/junk.zfk": Data("nothing here".utf8),
                "art/.hidden/secret.zfk": AuditTestCoder.file(width: 1, height: 1, delaysMs: [5, 5], storedLoop: 0),
                "readme.txt": Data("text".utf8),
            ]
            for (name, data) in files { try data.write(to: URL(fileURLWithPath: path + "/" + name)) }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    private static func registry() -> CoderRegistry {
        let r = CoderRegistry.withBuiltInCoders()
        r.register(AuditTestCoder())
        return r
    }

    private static func run(_ args: [String]) -> (status: Int32, stdout: String) {
        var lines: [String] = []
        let box = LineBox()
        var out = Output(standardOutput: { box.lines.append($0) }, standardError: { box.lines.append("stderr: " + $0) })
        let status = (try? AuditCommand.run(args, registry: registry(), out: &out)) ?? -1
        lines = box.lines
        return (status, lines.joined(separator: "\n"))
    }

    private final class LineBox { var lines: [String] = [] }

    @Test func tableListsAnimatedFilesWithTheirCostAndWarnings() throws {
        let folder = try Folder()
        let r = Self.run([folder.path, "--relative-to", folder.path])
        #expect(r.status == 0)
        let expected = """
            PATH           FORMAT  CANVAS     FRAMES  PLAYS     DURATION  CLAMPED  ALL FRAMES  1 AHEAD  WARNINGS
            art/big.zfk    zfake   4096×4096  2       2         200 ms    0        128 MiB     128 MiB  decoding all frames takes 134,217,728 bytes (128 MiB), over 67,108,864 bytes (64 MiB)
            art/junk.zfk   ?       -          -       -         -         -        -           -        the extension says zfk but no registered coder recognises the content
            art/one.zfk    zfake   3×3        1       infinite  500 ms    0        36 B        36 B     an animated zfake holding a single frame
            art/spin.zfk   zfake   8×8        4       infinite  300 ms    2/4      1 KiB       512 B    2 of 4 delays are 10 ms or less and play as 100 ms
            art/wrong.gif  zfake   4×4        2       1         200 ms    0        128 B       128 B    content is zfake but the extension says gif
            5 files listed, 5 warnings; 1 still image not listed; 7 files scanned
            """
        #expect(r.stdout == expected)
    }

    @Test func jsonCarriesTheSameFacts() throws {
        let folder = try Folder()
        let r = Self.run([folder.path + "/art/spin.zfk", folder.path + "/art/still.zfk", "--json", "--relative-to", folder.path])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(o["stillImages"] as? Int == 1)
        #expect(o["filesScanned"] as? Int == 2)
        #expect(o["warningCount"] as? Int == 1)
        let files = try #require(o["files"] as? [[String: Any]])
        #expect(files.count == 1)
        let f = try #require(files.first)
        #expect(f["path"] as? String == "art/spin.zfk")
        #expect(f["format"] as? String == "zfake")
        #expect(f["width"] as? Int == 8)
        #expect(f["frameCount"] as? Int == 4)
        #expect(f["plays"] as? String == "infinite")
        #expect(f["totalDurationMs"] as? Int == 110)
        #expect(f["displayTotalDurationMs"] as? Int == 300)
        #expect(f["clampedDelays"] as? Int == 2)
        #expect(f["allFramesBytes"] as? Int == 1024)
        #expect(f["oneAheadBytes"] as? Int == 512)
        #expect(f["warnings"] as? [String] == ["2 of 4 delays are 10 ms or less and play as 100 ms"])
    }

    @Test func strictFailsOnlyWhenSomethingWarns() throws {
        let folder = try Folder()
        #expect(Self.run([folder.path + "/art/spin.zfk", "--strict"]).status == 1)
        #expect(Self.run([folder.path + "/art/wrong.gif"]).status == 0)
        #expect(Self.run([folder.path + "/art/still.zfk", "--strict"]).status == 0)
        // A higher size threshold silences the large-size warning.
        #expect(Self.run([folder.path + "/art/big.zfk", "--strict", "--large-mib", "256"]).status == 0)
    }

    @Test func emptyResultSaysSo() throws {
        let folder = try Folder()
        let r = Self.run([folder.path + "/readme.txt"])
        #expect(r.stdout == "no animated images found; 0 files listed, 0 warnings; 0 still images not listed; 1 file scanned")
    }

    @Test func missingPathIsAToolError() {
        let r = ToolRun(["audit", "/nonexistent/folder"])
        #expect(r.status == 1)
        #expect(r.stderr == "zoetrope: /nonexistent/folder: no such file or folder")
        #expect(ToolRun(["audit"]).status == 2)
    }
}
