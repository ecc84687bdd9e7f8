import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// AVIF's colour boxes (`colr` `prof` and `nclx`) and Exif/XMP items: written by
/// `AVIFEncoder` through libavif, read back through libavif, accepted by `avifdec`.
@Suite struct AVIFColorAndMetadataTests {
    static let size = AVIFEncoderTests.size

    static func encode(frames count: Int, options: EncodingOptions) throws -> Data {
        let frames = AVIFEncoderTests.frames(count).map { EncodingFrame(pixels: $0, duration: .milliseconds(50)) }
        return try AVIFEncoder(speed: 10).encode(frames, canvasSize: size, options: options)
    }

    static let full = EncodingOptions(
        loopCount: .plays(2), color: ColorInfo(iccProfile: ColorFixtures.iccProfile),
        metadata: ColorFixtures.metadata)

    @Test(arguments: [1, 3])
    func profileExifAndXMPRoundTrip(frames count: Int) throws {
        let data = try Self.encode(frames: count, options: Self.full)
        let source = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.frameCount == count)
        #expect(source.info.color.iccProfile == ColorFixtures.iccProfile)
        #expect(source.info.metadata == ColorFixtures.metadata)
        // The pixels are what they are without the description.
        let plain = try AVIFCoder().makeFrameSource(
            data: try Self.encode(frames: count, options: EncodingOptions(loopCount: .plays(2))),
            options: DecodingOptions(colorOutput: .stored))
        #expect(plain.info.color == .unspecified)
        #expect(plain.info.metadata == .none)
        for i in 0..<count { #expect(try source.decodeFrame(at: i) == (try plain.decodeFrame(at: i)), "frame \(i)") }
    }

    static let avifdec = "/usr/bin/avifdec"

    /// `avifdec --info` (libavif-bin) parses the file and reports the profile, Exif and XMP.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: avifdec), "avifdec missing (apt install libavif-bin)"),
        arguments: [1, 3])
    func avifdecReadsProfileExifAndXMP(frames count: Int) throws {
        try Self.checkWithAvifdec(try Self.encode(frames: count, options: Self.full), expectsICC: true)
    }

    @Test func codePointsAreWrittenAndReadWhenTheyDeclareSomething() throws {
        // Display P3 primaries with the sRGB transfer: nclx 12/13; the matrix and range are the encoder's.
        let p3 = ColorCodePoints(primaries: 12, transfer: 13, matrix: 9, fullRange: false)
        let data = try Self.encode(frames: 1, options: EncodingOptions(color: ColorInfo(codePoints: p3)))
        let info = try AVIFCoder().makeFrameSource(data: data, options: .default).info
        #expect(info.color == ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true)))
        // Lossy: primaries and transfer as given
        let lossy = try Self.encode(frames: 1, options: EncodingOptions(quality: 80, color: ColorInfo(codePoints: p3)))
        let lossyPoints = try AVIFCoder().makeFrameSource(data: lossy, options: .default).info.color.codePoints
        // (the matrix is the one libavif codes lossy frames with: 0.11 leaves it unspecified)
        #expect(
            lossyPoints?.primaries == 12 && lossyPoints?.transfer == 13 && lossyPoints?.fullRange == true,
            "\(String(describing: lossyPoints))")
        // sRGB's code points (1/13) declare nothing beyond what an untagged file means.
        let srgb = ColorCodePoints(primaries: 1, transfer: 13, matrix: 0, fullRange: true)
        let plain = try Self.encode(frames: 1, options: EncodingOptions(color: ColorInfo(codePoints: srgb)))
        #expect(try AVIFCoder().makeFrameSource(data: plain, options: .default).info.color == .unspecified)
    }

    @Test func aProfileAndCodePointsTogether() throws {
        let pq = ColorCodePoints(primaries: 9, transfer: 16, matrix: 9, fullRange: true)
        let data = try Self.encode(frames: 2, options: EncodingOptions(color: ColorInfo(iccProfile: ColorFixtures.iccProfile, codePoints: pq)))
        let info = try AVIFCoder().makeFrameSource(data: data, options: .default).info
        #expect(info.color.iccProfile == ColorFixtures.iccProfile)
        #expect(info.color.codePoints == ColorCodePoints(primaries: 9, transfer: 16, matrix: 0, fullRange: true))
    }

    /// `avifdec --info` parses the file (and reports the profile, Exif and XMP when `expectsICC`).
    static func checkWithAvifdec(_ data: Data, expectsICC: Bool) throws {
        let tool = avifdec
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-colour-\(UUID().uuidString).avif")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--info", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "avifdec --info: \(output)")
        if expectsICC {
            let lines = output.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
            func value(_ key: String) -> String? { lines.first { $0.count == 2 && $0[0] == "* \(key)" }?[1] }
            #expect(value("ICC Profile") == "Present (\(ColorFixtures.iccProfile.data.count) bytes)", "\(output)")
            #expect(value("Exif Metadata") == "Present (\(ColorFixtures.exif.count) bytes)", "\(output)")
            #expect(value("XMP Metadata") == "Present (\(ColorFixtures.xmp.count) bytes)", "\(output)")
        }
    }
}
