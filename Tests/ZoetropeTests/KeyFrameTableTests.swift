import Testing
import Zoetrope
import ZoetropeTestSupport

/// The shared restart-point rule, checked against the compositor itself: for every
/// sequence of up to three frames over every rectangle shape, disposal, blend and opacity
/// (and random longer ones), every plan `KeyFrameTable` makes gives exactly the canvas that
/// decoding from the first frame gives, and costs the fewer of continuing and restarting.
@Suite struct KeyFrameTableTests {
    static let canvas = PixelSize(width: 2, height: 1)
    /// Full, left half, empty, and larger than the canvas (GIF frames may reach past it).
    static let rects = [
        PixelRect(x: 0, y: 0, width: 2, height: 1), PixelRect(x: 0, y: 0, width: 1, height: 1),
        PixelRect(x: 0, y: 0, width: 0, height: 0), PixelRect(x: 0, y: 0, width: 3, height: 1),
    ]
    static let choices: [FramePlacement] = rects.flatMap { rect in
        DisposeMode.allCases.flatMap { dispose in
            BlendMode.allCases.flatMap { blend in
                [false, true].map { FramePlacement(rect: rect, dispose: dispose, blend: blend, isOpaque: $0) }
            }
        }
    }

    /// Frame `j`'s pixels: a colour of its own, translucent unless the placement is opaque,
    /// so that blending over anything else gives a different result.
    static func draw(_ j: Int, _ p: FramePlacement, bySource: Bool, on c: inout Compositor) {
        c.beginFrame(rect: p.rect, dispose: p.dispose)
        guard !p.rect.isEmpty else { return }
        let rgba: [UInt8] = [UInt8((40 + 50 * j) % 256), UInt8((200 + 30 * j) % 256), UInt8(7 * j + 1), p.isOpaque ? 255 : 100]
        let pixels = (0..<p.rect.width * p.rect.height).flatMap { _ in rgba }
        pixels.withUnsafeBytes { c.draw($0, bytesPerRow: p.rect.width * 4, rect: p.rect, blend: bySource ? .source : p.blend) }
    }

    /// A canvas left by unrelated frames, with a "dispose to previous" still pending: what a
    /// restart must not let through.
    static func staleCanvas() -> Compositor {
        var c = Compositor(size: canvas)
        draw(9, FramePlacement(rect: rects[0], dispose: .none, blend: .source, isOpaque: true), bySource: true, on: &c)
        draw(8, FramePlacement(rect: rects[1], dispose: .previous, blend: .source), bySource: true, on: &c)
        return c
    }

    /// Checks every plan over `frames` against decoding from the first frame.
    static func check(_ frames: [FramePlacement], keyFramesReplace: Bool = false) {
        let table = KeyFrameTable(frames, canvasSize: canvas, keyFramesReplace: keyFramesReplace)
        // The truth: every frame in order from a transparent canvas, keeping each state.
        var states: [Compositor] = []
        var c = Compositor(size: canvas)
        for (j, p) in frames.enumerated() {
            draw(j, p, bySource: table.drawsBySource(j), on: &c)
            states.append(c)
        }
        #expect(table.isKeyFrame(0))
        for target in frames.indices {
            let key = table.restartFrame(for: target)
            #expect(key <= target && table.isKeyFrame(key), "\(frames) target \(target)")
            for current in [nil] + Array(frames.indices) {
                let plan = table.plan(to: target, from: current)
                if current == target {
                    #expect(plan.frames.isEmpty)
                    continue
                }
                let continues = current.map { $0 < target } ?? false
                let cost = min(continues ? target - current! : .max, target - key + 1)
                #expect(plan.frameCount == cost, "\(frames) \(current.map(String.init) ?? "nil") → \(target)")
                var canvas = plan.restarts ? staleCanvas() : states[current!]
                if plan.clearsCanvas { canvas.reset() }
                for j in plan.frames { draw(j, frames[j], bySource: table.drawsBySource(j), on: &canvas) }
                #expect(canvas.canvas == states[target].canvas, "\(frames) \(current.map(String.init) ?? "nil") → \(target)")
                // Playing on from there: the pending disposal (what "previous" saved) must be
                // the one decoding from the first frame leaves.
                for j in (target + 1)..<frames.count {
                    draw(j, frames[j], bySource: table.drawsBySource(j), on: &canvas)
                    #expect(
                        canvas.canvas == states[j].canvas,
                        "\(frames) \(current.map(String.init) ?? "nil") → \(target), then on to \(j)")
                }
            }
            if table.decodesDirectly(target) {
                // The frame alone, drawn over nothing, is the frame; and the next needs no canvas.
                var alone = staleCanvas()
                draw(target, frames[target], bySource: true, on: &alone)
                #expect(alone.canvas == states[target].canvas, "\(frames) direct \(target)")
                #expect(target + 1 == frames.count || table.isKeyFrame(target + 1))
            }
        }
    }

    @Test func everySequenceOfUpToThreeFramesRestartsCorrectly() {
        for a in Self.choices {
            Self.check([a])
            for b in Self.choices {
                Self.check([a, b])
                for c in Self.choices { Self.check([a, b, c]) }
            }
        }
    }

    /// A restart at a key frame that covers the canvas but is disposed to previous: the
    /// canvas under it comes back when the next frame is drawn, so the restart must start
    /// from a cleared canvas, not from whatever an earlier decode left.
    @Test func aCoveringKeyFrameDisposedToPreviousRestartsOnAClearedCanvas() {
        let black = FramePlacement(rect: Self.rects[0], dispose: .previous, blend: .over, isOpaque: true)
        let dot = FramePlacement(rect: Self.rects[1], dispose: .none, blend: .over, isOpaque: true)
        let table = KeyFrameTable([black, dot, dot], canvasSize: Self.canvas)
        #expect(table.plan(to: 0, from: 2) == SeekPlan(frames: 0..<1, restarts: true, clearsCanvas: true))
        #expect(table.plan(to: 0, from: nil) == SeekPlan(frames: 0..<1, restarts: true, clearsCanvas: true))
        Self.check([black, dot, dot])
        // The same after a first frame that leaves the canvas clear (APNG's shape: there,
        // PREVIOUS on the first frame acts as BACKGROUND).
        let first = FramePlacement(rect: Self.rects[1], dispose: .background, blend: .source, isOpaque: true)
        Self.check([first, black, dot, dot])
    }

    @Test func randomLongerSequencesRestartCorrectly() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<400 {
            let n = Int.random(in: 4...9, using: &rng)
            let frames = (0..<n).map { _ in Self.choices.randomElement(using: &rng)! }
            Self.check(frames)
        }
    }

    /// WebP frames: inside the canvas, never empty, no "dispose to previous", key frames
    /// drawn by replacing. The table must agree with libwebp's `IsKeyFrame` exactly.
    @Test func webPSequencesFollowLibwebpsRule() {
        let webp = Self.choices.filter { $0.dispose != .previous && !$0.rect.isEmpty && $0.rect.width <= 2 }
        func libwebp(_ frames: [FramePlacement]) -> [Bool] {
            let full = Self.rects[0]
            var keys: [Bool] = []
            for (i, f) in frames.enumerated() {
                if i == 0 {
                    keys.append(true)
                } else if (f.isOpaque || f.blend == .source) && f.rect == full {
                    keys.append(true)
                } else {
                    let p = frames[i - 1]
                    keys.append(p.dispose == .background && (p.rect == full || keys[i - 1]))
                }
            }
            return keys
        }
        for a in webp {
            for b in webp {
                for c in webp {
                    let frames = [a, b, c]
                    let table = KeyFrameTable(frames, canvasSize: Self.canvas, keyFramesReplace: true)
                    #expect(frames.indices.map(table.isKeyFrame) == libwebp(frames), "\(frames)")
                    Self.check(frames, keyFramesReplace: true)
                }
            }
        }
    }

    @Test func browserRulesForGIFAndAPNGGiveTheseKeyFrames() {
        let full = Self.rects[0], left = Self.rects[1]
        func keys(_ frames: [FramePlacement]) -> [Int] {
            KeyFrameTable(frames, canvasSize: Self.canvas).keyFrameIndices
        }
        // Dispose to background clears to transparent: the next frame starts afresh.
        #expect(keys([.init(rect: full, dispose: .background, blend: .over), .init(rect: left, dispose: .none, blend: .over)]) == [0, 1])
        // A partial frame disposed to background on a clear canvas leaves it clear.
        #expect(
            keys([
                .init(rect: left, dispose: .background, blend: .over), .init(rect: left, dispose: .none, blend: .over),
                .init(rect: left, dispose: .none, blend: .over),
            ]) == [0, 1])
        // Dispose to previous brings back the canvas under the frame: clear after a clear start...
        #expect(keys([.init(rect: left, dispose: .previous, blend: .over), .init(rect: left, dispose: .none, blend: .over)]) == [0, 1])
        // ...but not after a frame that covered the canvas: an opaque full frame restored
        // afterwards is no restart point, and neither is what follows it.
        #expect(
            keys([
                .init(rect: left, dispose: .none, blend: .over),
                .init(rect: full, dispose: .previous, blend: .over, isOpaque: true),
                .init(rect: left, dispose: .none, blend: .over),
            ]) == [0])
        // Blend source over the full canvas replaces alpha too: a key frame.
        #expect(keys([.init(rect: left, dispose: .none, blend: .over), .init(rect: full, dispose: .none, blend: .source)]) == [0, 1])
        // A translucent full frame blending over is not.
        #expect(keys([.init(rect: left, dispose: .none, blend: .over), .init(rect: full, dispose: .none, blend: .over)]) == [0])
    }

    @Test func aFrameThatTurnsOutIncompleteStopsBeingAKeyFrame() {
        let full = Self.rects[0], left = Self.rects[1]
        var table = KeyFrameTable(
            [
                .init(rect: left, dispose: .none, blend: .over),
                .init(rect: full, dispose: .none, blend: .over, isOpaque: true),
                .init(rect: left, dispose: .none, blend: .over),
            ], canvasSize: Self.canvas)
        #expect(table.keyFrameIndices == [0, 1])
        #expect(table.restartFrame(for: 2) == 1)
        #expect(table.plan(to: 2, from: nil) == SeekPlan(frames: 1..<3, restarts: true, clearsCanvas: false))
        let changed = table.markIncomplete(1), again = table.markIncomplete(1)
        #expect(changed && !again)
        #expect(table.keyFrameIndices == [0])
        #expect(table.plan(to: 2, from: nil) == SeekPlan(frames: 0..<3, restarts: true, clearsCanvas: true))
    }

    @Test func plansContinueOnATieAndRestartWhenTheKeyFrameIsNearer() {
        let full = Self.rects[0], left = Self.rects[1]
        let frames: [FramePlacement] =
            [.init(rect: left, dispose: .none, blend: .over)]
            + Array(repeating: .init(rect: left, dispose: .none, blend: .over), count: 3)
            + [.init(rect: full, dispose: .none, blend: .source)]
            + Array(repeating: .init(rect: left, dispose: .none, blend: .over), count: 3)
        let table = KeyFrameTable(frames, canvasSize: Self.canvas)
        #expect(table.keyFrameIndices == [0, 4])
        #expect(table.plan(to: 6, from: 1) == SeekPlan(frames: 4..<7, restarts: true, clearsCanvas: false))
        #expect(table.plan(to: 6, from: 3) == SeekPlan(frames: 4..<7, restarts: false, clearsCanvas: false))
        #expect(table.plan(to: 6, from: 5) == SeekPlan(frames: 6..<7, restarts: false, clearsCanvas: false))
        #expect(table.plan(to: 2, from: 5) == SeekPlan(frames: 0..<3, restarts: true, clearsCanvas: true))
        #expect(table.plan(to: 3, from: 3).frames.isEmpty)
    }
}
