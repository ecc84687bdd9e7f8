import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs
import ZoetropeDemo

@testable import ZoetropeTool

@Suite struct SheetTests {
    /// A 4×3 animation of three frames: red, green, and blue over a transparent right half.
    private static let info = AnimationInfo(
        format: .gif, canvasSize: PixelSize(width: 4, height: 3),
        frameDurations: [.zero, .milliseconds(50), .centiseconds(7)],
        loopCount: .plays(2), storedLoopValue: 1)

    private static func frame(_ i: Int) -> PixelBuffer {
        var b = PixelBuffer(width: 4, height: 3)
        let colours: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)]
        b.fill(PixelRect(x: 0, y: 0, width: i == 2 ? 2 : 4, height: 3), with: colours[i])
        return b
    }

    private static func makeSheet() throws -> ContactSheet {
        var sheet = try ContactSheet(info: info, title: "t")
        for i in 0..<3 { sheet.add(frame: frame(i), index: i, rawDuration: info.frameDurations[i]) }
        return sheet
    }

    /// Every RGBA value in a rectangle of the sheet.
    private static func colours(in sheet: ContactSheet, _ r: PixelRect) -> Set<[UInt8]> {
        var set = Set<[UInt8]>()
        for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { set.insert(sheet.image.pixel(x: x, y: y)) } }
        return set
    }

    @Test func labelsSayIndexAndDisplayDuration() {
        #expect(ContactSheet.label(index: 0, duration: .milliseconds(100), clamped: true) == "#0 100ms*")
        #expect(ContactSheet.label(index: 12, duration: .milliseconds(50), clamped: false) == "#12 50ms")
        #expect(ContactSheet.label(index: 3, duration: FrameDuration(numerator: 1, denominator: 30), clamped: false) == "#3 33.3ms")
    }

    @Test func tinyFramesAreEnlargedByAWholeFactorInAGrid() throws {
        let sheet = try Self.makeSheet()
        // 64 / 4 = 16 times: 64×48 thumbnails, three of them in a row of a near-square grid.
        #expect(sheet.thumbSize == PixelSize(width: 64, height: 48))
        #expect(sheet.columns == 2)
        #expect(sheet.thumbnailOrigin(index: 0) == (8, 23))
        #expect(sheet.thumbnailOrigin(index: 1).y == 23)
        #expect(sheet.thumbnailOrigin(index: 2).x == 8)
    }

    @Test func framesAreDrawnOverACheckerboard() throws {
        let sheet = try Self.makeSheet()
        let (x0, y0) = sheet.thumbnailOrigin(index: 0)
        #expect(Self.colours(in: sheet, PixelRect(x: x0, y: y0, width: 64, height: 48)) == [[255, 0, 0, 255]])
        let (x1, y1) = sheet.thumbnailOrigin(index: 1)
        #expect(Self.colours(in: sheet, PixelRect(x: x1, y: y1, width: 64, height: 48)) == [[0, 255, 0, 255]])
        // Frame 2: blue on the left half, the transparent right half shows the two checker greys.
        let (x2, y2) = sheet.thumbnailOrigin(index: 2)
        #expect(Self.colours(in: sheet, PixelRect(x: x2, y: y2, width: 32, height: 48)) == [[0, 0, 255, 255]])
        #expect(
            Self.colours(in: sheet, PixelRect(x: x2 + 32, y: y2, width: 32, height: 48))
                == [[200, 200, 200, 255], [150, 150, 150, 255]])
    }

    @Test func clampedDelaysAreLabelledInOrange() throws {
        let sheet = try Self.makeSheet()
        func labelColours(_ i: Int) -> Set<[UInt8]> {
            let (x, y) = sheet.thumbnailOrigin(index: i)
            return Self.colours(in: sheet, PixelRect(x: x, y: y + 48 + ContactSheet.labelGap, width: 64, height: 7))
        }
        let orange: [UInt8] = [255, 160, 60, 255], white: [UInt8] = [235, 235, 235, 255]
        // Frame 0 stores 0 ms: the player shows 100 ms, so its label is orange.
        #expect(labelColours(0).contains(orange))
        #expect(!labelColours(0).contains(white))
        #expect(labelColours(1).contains(white))
        #expect(!labelColours(1).contains(orange))
        #expect(labelColours(2).contains(white))
    }

    @Test func theFontDrawsKnownGlyphsAndABoxForOthers() {
        var b = PixelBuffer(width: 12, height: 7)
        BitmapFont.draw("1", into: &b, x: 0, y: 0, color: (9, 9, 9, 255))
        // "1": the foot of the glyph is three pixels wide, the top a single pixel in the middle.
        #expect((0..<5).map { b.pixel(x: $0, y: 6)[3] } == [0, 255, 255, 255, 0])
        #expect((0..<5).map { b.pixel(x: $0, y: 0)[3] } == [0, 0, 255, 0, 0])
        BitmapFont.draw("€", into: &b, x: 6, y: 0, color: (9, 9, 9, 255))
        #expect((6..<11).map { b.pixel(x: $0, y: 0)[3] } == [255, 255, 255, 255, 255])
        #expect(BitmapFont.width(of: "#12 50ms") == 8 * 6 - 1)
    }

    @Test func demoSheetIsAPNGOfTheLaidOutSize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-sheet-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = ToolRun(["frames", "--demo", "--sheet", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let png = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ o: Int) -> Int { png[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        let expected = try ContactSheet(info: DemoAnimation.info, title: "")
        #expect(be32(16) == expected.image.width)
        #expect(be32(20) == expected.image.height)
        // 756×304 fits 160×64 thumbnails; 100 frames lay out 7 to a row.
        #expect(expected.thumbSize == PixelSize(width: 160, height: 64))
        #expect(expected.columns == 7)
    }

    @Test func framesNeedAnOutputOrASheet() {
        let r = ToolRun(["frames", "--demo"])
        #expect(r.status == 2)
        #expect(r.stderr == "zoetrope: frames needs --output DIR or --sheet OUT.png (see 'zoetrope --help')")
    }

    @Test func sheetOfAnUnreadableFileFailsWithOneLine() {
        let r = ToolRun(["frames", "/nonexistent/a.gif", "--sheet", "/tmp/never-written.png"])
        #expect(r.status == 1)
        #expect(r.stderr == "zoetrope: /nonexistent/a.gif: no such file")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
    }

    @Test func sheetOfAnEncodedGIFShowsEachFrameAndFlagsClampedDelays() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-sheet-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = ToolRun(["frames", EncodedFileFixtures.spinnerGIF, "--sheet", path])
        #expect(r.status == 0, "\(r.stderr)")
        // Read the sheet back with the tool's own PNG decoder.
        let data = try #require(FileManager.default.contents(atPath: path))
        let sheetImage = try CoderRegistry.withBuiltInCoders().makeFrameSource(data: data).decodeFrame(at: 0)
        let info = AnimationInfo(
            format: .gif, canvasSize: PixelSize(width: 8, height: 8),
            frameDurations: [.milliseconds(10), .milliseconds(50), .zero, .milliseconds(50)],
            loopCount: .infinite, storedLoopValue: 0)
        let layout = try ContactSheet(info: info, title: ContactSheet.title(for: info, name: EncodedFileFixtures.spinnerGIF))
        #expect(sheetImage.size == layout.image.size)
        #expect(layout.thumbSize == PixelSize(width: 64, height: 64))
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 200, 0, 255], [0, 0, 255, 255], [255, 0, 0, 255]]
        for i in 0..<4 {
            let (x, y) = layout.thumbnailOrigin(index: i)
            #expect(sheetImage.pixel(x: x, y: y) == colours[i], "frame \(i) top-left")
            #expect(sheetImage.pixel(x: x + 63, y: y + 63) == colours[i], "frame \(i) bottom-right")
            // 10 ms and 0 ms play as 100 ms: those labels are orange.
            var label = Set<[UInt8]>()
            for ly in 0..<7 { for lx in 0..<64 { label.insert(sheetImage.pixel(x: x + lx, y: y + 64 + ContactSheet.labelGap + ly)) } }
            #expect(label.contains([255, 160, 60, 255]) == (i == 0 || i == 2), "frame \(i) label")
        }
    }
}
