import Testing

@testable import ZoetropeGIF

/// `GIFKeepStretches`: stretches of pixels that need not be drawn go transparent when they
/// hold more than one colour, and stay free when they hold one.
@Suite struct GIFKeepStretchesTests {
    @Test func stretchesOfSeveralColoursGoTransparent() {
        // 9 is transparent; lower case in the comments marks unchanged (flexible) pixels.
        //            a  a  B  a  c  T  c  D  e  e  e | next row: e  F
        let source: [UInt8] = [1, 1, 2, 1, 3, 9, 3, 4, 5, 5, 5, 5, 6]
        let flexible = [true, true, false, true, true, false, true, false, true, true, true, true, false]
        let layout = GIFKeepStretches(indices: source, flexible: flexible, transparent: 9)
        // "a a": one colour, drawn and still free. "a c T c": several, transparent. "e e e e"
        // runs on across the row end: one colour.
        #expect(layout.indices == [1, 1, 2, 9, 9, 9, 9, 4, 5, 5, 5, 5, 6])
        #expect(layout.flexible == [true, true, false, false, false, false, false, false, true, true, true, true, false])
    }

    @Test func aFrameWithNothingUnchangedIsLeftAlone() {
        let source: [UInt8] = [0, 1, 2, 3, 9, 3]
        let layout = GIFKeepStretches(indices: source, flexible: Array(repeating: false, count: 6), transparent: 9)
        #expect(layout.indices == source)
        #expect(layout.flexible.allSatisfy { !$0 })
    }
}
