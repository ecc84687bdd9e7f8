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

    /// The bits `apply` reports are those of the LZW data the encoder writes for its output
    /// (the tests' estimator, sub-block framing added), with and without transparency chosen.
    @Test func theReportedBitsAreTheCodedSize() {
        let (drawn, flexible) = Self.frame()
        var random = SplitMix64(seed: 11)
        let noise = (0..<3000).map { _ in UInt8(random.next() % 4) }  // the code width grows to 12
        for (indices, free) in [(drawn, flexible), (drawn, nil), (noise, nil)] {
            var out = indices
            var matcher = GIFLZWMatcher()
            let bits = matcher.apply(to: &out, flexible: free, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0)
            let bytes = (bits + 7) / 8
            #expect(bytes + (bytes + 254) / 255 + 1 == LZWSizeEstimator.byteCount(out, minimumCodeSize: 3))
        }
    }

    /// 96×64 of runs of `runLength` pixels in random colours of four, each changed with a
    /// chance of 1 in `changeEvery` (the others unchanged, so flexible).
    static func runsFrame(seed: UInt64, runLength: Int, changeEvery: UInt64) -> (drawn: [UInt8], flexible: [Bool]) {
        var random = SplitMix64(seed: seed)
        var drawn = [UInt8](), flexible = [Bool]()
        var colour = UInt8(0), changed = false
        for i in 0..<(96 * 64) {
            if i % runLength == 0 {
                colour = UInt8(random.next() % 4)
                changed = random.next() % changeEvery == 0
            }
            drawn.append(colour)
            flexible.append(!changed)
        }
        return (drawn, flexible)
    }

    /// `applyBestLayout` keeps whichever of its three layouts codes smallest: on these two
    /// frames (found by trying seeds) the stretch layout drawn, and the stretches with the
    /// rest chosen pixel by pixel, beat the pixel-by-pixel choice.
    @Test(arguments: [(22, 4, 2, 1), (26, 3, 3, 2)])
    func theBestLayoutIsTheSmallestOfTheThree(seed: UInt64, runLength: Int, changeEvery: UInt64, winner: Int) {
        let (drawn, flexible) = Self.runsFrame(seed: seed, runLength: runLength, changeEvery: changeEvery)
        let stretches = GIFKeepStretches(indices: drawn, flexible: flexible, transparent: 4)
        var matcher = GIFLZWMatcher()
        var sizes: [Int] = []
        for (start, free) in [(drawn, flexible), (stretches.indices, nil), (stretches.indices, stretches.flexible)] {
            var out = start
            matcher.apply(to: &out, flexible: free, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0)
            sizes.append(LZWSizeEstimator.byteCount(out, minimumCodeSize: 3))
        }
        #expect(sizes.firstIndex(of: sizes.min()!) == winner, "\(sizes)")
        var best = drawn
        matcher.applyBestLayout(
            to: &best, flexible: flexible, held: nil, colours: Self.colours, transparent: 4, tableSize: 5, budget: 0, heldBudget: 0)
        #expect(LZWSizeEstimator.byteCount(best, minimumCodeSize: 3) == sizes.min())
    }
}
