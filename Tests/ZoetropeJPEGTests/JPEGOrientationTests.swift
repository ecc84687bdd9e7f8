import Foundation
import Testing
import Zoetrope

@testable import ZoetropeJPEG

@Suite struct JPEGOrientationTests {
    /// The displayed quadrants (top-left, top-right, bottom-left, bottom-right) of a picture
    /// stored as red | green over blue | white, for each Exif orientation.
    static let quadrants: [Int: [String]] = [
        1: ["red", "green", "blue", "white"],
        2: ["green", "red", "white", "blue"],
        3: ["white", "blue", "green", "red"],
        4: ["blue", "white", "red", "green"],
        5: ["red", "blue", "green", "white"],
        6: ["blue", "red", "white", "green"],
        7: ["white", "green", "blue", "red"],
        8: ["green", "white", "red", "blue"],
    ]

    static func name(_ p: [UInt8]) -> String {
        switch (p[0] > 128, p[1] > 128, p[2] > 128) {
        case (true, false, false): "red"
        case (false, true, false): "green"
        case (false, false, true): "blue"
        case (true, true, true): "white"
        default: "other \(p)"
        }
    }

    @Test(arguments: 1...8)
    func eachOrientationShowsTheQuadrantsWhereTheyBelong(value: Int) throws {
        let stored = JPEGFixtures.compress(JPEGFixtures.quadrants(), width: 32, height: 16, quality: 100)
        let jpeg = JPEGFixtures.withOrientation(stored, value, bigEndian: value % 2 == 1)
        #expect(try JPEGCoder.orientation(of: jpeg).rawValue == value)
        let frames = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        let size = value >= 5 ? PixelSize(width: 16, height: 32) : PixelSize(width: 32, height: 16)
        #expect(frames.info.canvasSize == size)
        let frame = try frames.decodeFrame(at: 0)
        #expect(frame.size == size)
        let (w, h) = (size.width, size.height)
        let seen = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
            .map { Self.name(frame.pixel(x: $0.0, y: $0.1)) }
        #expect(seen == Self.quadrants[value])
    }

    @Test(arguments: 2...8)
    func eachOrientationMovesEveryPixelOfTheStoredDecode(value: Int) throws {
        let stored = JPEGFixtures.compress(JPEGFixtures.gradient(width: 21, height: 13), width: 21, height: 13)
        let reference = JPEGFixtures.reference(stored)
        let orientation = try #require(JPEGOrientation(rawValue: value))
        let frame = try JPEGCoder().makeFrameSource(data: JPEGFixtures.withOrientation(stored, value), options: .default)
            .decodeFrame(at: 0)
        #expect(frame.size == orientation.displayedSize(of: reference.size))
        var mismatches = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let s = orientation.storedPixel(x: x, y: y, width: 21, height: 13)
                if frame.pixel(x: x, y: y) != reference.pixel(x: s.x, y: s.y) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func brokenOrMissingExifMeansUpright() throws {
        let stored = JPEGFixtures.compress(JPEGFixtures.quadrants(), width: 32, height: 16)
        #expect(try JPEGCoder.orientation(of: stored) == .up)
        // Out of range, the wrong type, an IFD0 offset past the segment: all ignored.
        #expect(try JPEGCoder.orientation(of: JPEGFixtures.withOrientation(stored, 9)) == .up)
        #expect(try JPEGCoder.orientation(of: JPEGFixtures.withOrientation(stored, 0)) == .up)
        #expect(try JPEGCoder.orientation(of: JPEGFixtures.withExif(stored, tags: [(0x0112, 4, 1, 6)])) == .up)
        var badOffset = [UInt8](JPEGFixtures.withOrientation(stored, 6))
        badOffset[2 + 4 + 6 + 4] = 0xF0  // IFD0 offset's low byte ("II"): far past the payload
        #expect(try JPEGCoder.orientation(of: Data(badOffset)) == .up)
        #expect(try JPEGCoder().makeFrameSource(data: Data(badOffset), options: .default).info.canvasSize == PixelSize(width: 32, height: 16))
        // Only the first Exif block counts.
        let twice = JPEGFixtures.withOrientation(JPEGFixtures.withOrientation(stored, 6), 1)
        #expect(try JPEGCoder.orientation(of: twice) == .up)
    }
}
