import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs
import ZoetropeDemo

@testable import ZoetropeTool

@Suite struct PlayCommandTests {
    private static func play(_ args: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let box = Lines()
        var out = Output(standardOutput: { box.out.append($0) }, standardError: { box.err.append($0) })
        let status: Int32
        do {
            status = try PlayCommand.run(args, registry: CoderRegistry.withBuiltInCoders(), out: &out, terminal: false)
        } catch let e as UsageError {
            box.err.append(e.message)
            status = 2
        } catch let e as ToolError {
            box.err.append(e.message)
            status = 1
        } catch {
            status = -1
        }
        return (status, box.out.joined(separator: "\n"), box.err.joined(separator: "\n"))
    }

    private final class Lines {
        var out: [String] = []
        var err: [String] = []
    }

    @Test func withoutATerminalItPlaysTheDemoOnceShowingEveryFrame() {
        let r = Self.play(["--speed", "4"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        // The stall policy never skips a frame, so one play shows all 100.
        #expect(r.stdout.hasPrefix("demo: played 1 time, 100 frames shown in "), "\(r.stdout)")
        #expect(r.stdout.contains(" s (one-ahead, ") && r.stdout.hasSuffix(" peak held)"), "\(r.stdout)")
    }

    @Test func reduceMotionShowsOnlyThePoster() {
        let r = Self.play(["--demo", "--reduce-motion"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("demo: showed the poster, 1 frame shown in "), "\(r.stdout)")
    }

    @Test func optionsAreCheckedBeforePlaying() {
        #expect(Self.play(["--speed", "9"]).stderr == "option '--speed' needs a speed from 0.25 to 4, got '9'")
        #expect(Self.play(["--loops", "-1"]).stderr == "option '--loops' needs a number of plays, or 0 or 'infinite' for forever, got '-1'")
        #expect(Self.play(["--policy", "most"]).stderr == "option '--policy' needs one-ahead, ahead:N, all, budget:MIB or shared, got 'most'")
        #expect(Self.play(["--late", "never"]).stderr == "option '--late' needs 'stall' or 'catch-up', got 'never'")
        #expect(Self.play(["a.gif", "b.gif"]).status == 2)
        #expect(Self.play(["/nonexistent.gif"]).stderr == "/nonexistent.gif: no such file")
        #expect(Self.play(["/nonexistent.gif"]).status == 1)
    }

    @Test func policiesParseToTheBuiltIns() throws {
        #expect(try PlayCommand.parsePolicy("one-ahead").name == "one-ahead")
        #expect(try PlayCommand.parsePolicy("ahead:4").name == "ahead:4")
        #expect(try PlayCommand.parsePolicy("all").name == "all")
        #expect(try PlayCommand.parsePolicy("budget:8").name == "budget:8388608")
        #expect(try PlayCommand.parsePolicy("shared").name == "shared")
        #expect(try PlayCommand.parseLoops("0") == .infinite)
        #expect(try PlayCommand.parseLoops("3") == .plays(3))
        #expect(try PlayCommand.parseLoops("infinite") == .infinite)
        #expect(try PlayCommand.parseLate("catch-up") == .catchUp)
    }

    @Test func keysDecodeFromTerminalBytes() {
        #expect(TerminalKey.parse(Array(" q".utf8)) == [.togglePause, .quit])
        #expect(TerminalKey.parse([0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.stepForward, .stepBackward])
        #expect(TerminalKey.parse(Array("+-=_x".utf8)) == [.faster, .slower, .faster, .slower])
        #expect(TerminalKey.parse([0x03]) == [.quit])
    }

    @Test func halfBlocksCarryTwoPixelsPerCellInTrueColour() {
        var b = PixelBuffer(width: 2, height: 2)
        b.setPixel(x: 0, y: 0, [255, 0, 0, 255])
        b.setPixel(x: 0, y: 1, [0, 0, 255, 255])
        b.setPixel(x: 1, y: 1, [0, 255, 0, 128])  // top transparent, bottom half-transparent green
        let text = HalfBlockRenderer(color: true).render(b, row: 3, column: 5)
        #expect(text == "\u{1B}[3;5H\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[49m\u{1B}[38;2;0;128;0m▄\u{1B}[0m")
        // NO_COLOR: a brightness ramp, transparent counting as dark.
        let plain = HalfBlockRenderer(color: false).render(b, row: 1, column: 1)
        #expect(plain == "\u{1B}[1;1H:.")
    }

    @Test func theDemoFitsAnEightyColumnTerminalBelowItsStatusLine() {
        // 756×304 into 79 columns (the last stays empty) × 23 rows of two pixels: 79×32 pixels, 16 rows.
        let l = TerminalDisplay.layout(frame: DemoAnimation.canvasSize, columns: 80, rows: 24, width: nil)
        #expect(l.columns == 79 && l.rows == 16)
        #expect(l.row == 4 && l.column == 1)
        let narrow = TerminalDisplay.layout(frame: DemoAnimation.canvasSize, columns: 80, rows: 24, width: 40)
        #expect(narrow.columns == 40 && narrow.rows == 8 && narrow.column == 21)
    }

    @Test func anEncodedFilePlaysOnceWhenNotATerminal() {
        let r = Self.play([EncodedFileFixtures.spinnerGIF])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("\(EncodedFileFixtures.spinnerGIF): played 1 time, 4 frames shown in "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("(one-ahead, 768 bytes peak held)"), "\(r.stdout)")
    }

    @Test func loopsOverrideThePlaysOfAnEncodedAPNG() {
        let r = Self.play([EncodedFileFixtures.pulseAPNG, "--loops", "2", "--speed", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("\(EncodedFileFixtures.pulseAPNG): played 2 times, 6 frames shown in "), "\(r.stdout)")
    }
}
