import Testing
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// `GIFLZWMatcher` without a budget: unchanged pixels (flexible) may be left transparent or
/// drawn, whichever makes longer LZW strings; nothing else changes.
@Suite struct GIFLZWMatcherTests {
    /// 96×64, index 4 transparent. The top half is an unchanged 4-colour texture (all
    /// flexible: transparent runs are shorter to code than the texture); in the bottom half
    /// every other pixel turns to colour 1 and the others already were 1 (flexible, and
    /// drawing them makes one flat run).
    static func frame() -> (drawn: [UInt8], flexible: [Bool]) {
        let width = 96, height = 64
        var drawn = [UInt8](), flexible = [Bool]()
        for y in 0..<height {
            for x in 0..<width {
                let top = y < height / 2
                drawn.append(top ? UInt8((x / 3 + y / 2) % 4) : 1)
                flexible.append(top || x % 2 == 0)
            }
        }
        return (drawn, flexible)
    }

    static let colours: [UInt32] = [0xFF00_0000, 0xFF00_00FF, 0xFF00_FF00, 0xFFFF_0000, 0]

    @Test func onlyFlexiblePixelsBecomeTransparent() {
        let (drawn, flexible) = Self.frame()
        var out = drawn
        var matcher = GIFLZWMatcher()
        matcher.apply(to: &out, flexible: flexible, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0)
        var madeTransparent = 0
        for i in out.indices where out[i] != drawn[i] {
            #expect(flexible[i] && out[i] == 4, "pixel \(i): \(drawn[i]) became \(out[i])")
            madeTransparent += 1
        }
        #expect(madeTransparent > 0)
        #expect(madeTransparent < flexible.filter { $0 }.count, "every unchanged pixel left transparent")
    }

    /// The per-pixel choice compresses better than either whole-frame choice.
    @Test func theChoiceIsSmallerThanAllDrawnOrAllTransparent() {
        let (drawn, flexible) = Self.frame()
        let kept = zip(drawn, flexible).map { $1 ? UInt8(4) : $0 }
        var out = drawn
        var matcher = GIFLZWMatcher()
        matcher.apply(to: &out, flexible: flexible, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0)
        let bytes = LZWSizeEstimator.byteCount(out, minimumCodeSize: 3)
        let allDrawn = LZWSizeEstimator.byteCount(drawn, minimumCodeSize: 3)
        let allKept = LZWSizeEstimator.byteCount(kept, minimumCodeSize: 3)
        #expect(bytes < min(allDrawn, allKept), "\(bytes) bytes against \(allDrawn) drawn, \(allKept) transparent")
    }

    /// Without flexible pixels or a budget the indices come back as they went in.
    @Test func nothingFlexibleAndNoBudgetChangesNothing() {
        let (drawn, _) = Self.frame()
        var out = drawn
        var matcher = GIFLZWMatcher()
        matcher.apply(to: &out, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0)
        #expect(out == drawn)
    }
}
