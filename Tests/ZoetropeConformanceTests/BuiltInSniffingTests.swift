import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeDemo
import ZoetropeGIF
import ZoetropeWebP

/// The registry with every built-in coder, recognising each signature from content.
@Suite struct BuiltInSniffingTests {
    let registry = CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder()])

    static func bytes(_ parts: [Any]) -> Data {
        var d = Data()
        for p in parts {
            switch p {
            case let s as String: d.append(contentsOf: Array(s.utf8))
            case let b as [UInt8]: d.append(contentsOf: b)
            case let b as [Int]: d.append(contentsOf: b.map { UInt8($0) })
            case let n as UInt32: d.append(contentsOf: [UInt8(n >> 24), UInt8((n >> 16) & 255), UInt8((n >> 8) & 255), UInt8(n & 255)])
            default: fatalError("unsupported part")
            }
        }
        return d
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static func chunk(_ type: String, _ length: UInt32) -> [Any] { [length, type, [UInt8](repeating: 0, count: Int(length) + 4)] }
    static func ftyp(major: String, compatible: [String]) -> Data {
        bytes([UInt32(16 + 4 * compatible.count), "ftyp", major, UInt32(0)] + compatible.map { $0 as Any } + [UInt32(8), "mdat"])
    }
    static func webp(_ chunk: String, flags: UInt8 = 0) -> Data {
        bytes(["RIFF", [30, 0, 0, 0], "WEBP", chunk, [10, 0, 0, 0], [flags], [UInt8](repeating: 0, count: 9)])
    }

    @Test(arguments: ["GIF87a", "GIF89a"])
    func gifSignatures(sig: String) {
        #expect(registry.sniff(Self.bytes([sig, [1, 0, 1, 0, 0, 0, 0]]))?.result == .match(.gif, .unknown))
    }

    @Test func pngWithAndWithoutAnimationControlBeforeIDAT() throws {
        let still = Self.bytes([Self.pngSignature] + Self.chunk("IHDR", 13) + Self.chunk("IDAT", 2) + Self.chunk("IEND", 0))
        let animated = Self.bytes(
            [Self.pngSignature] + Self.chunk("IHDR", 13) + Self.chunk("tEXt", 5)
                + Self.chunk("acTL", 8) + Self.chunk("IDAT", 2))
        let lateACTL = Self.bytes([Self.pngSignature] + Self.chunk("IHDR", 13) + Self.chunk("IDAT", 2) + Self.chunk("acTL", 8))
        #expect(registry.sniff(still)?.result == .match(.png, .still))
        #expect(registry.sniff(animated)?.result == .match(.apng, .animated))
        #expect(registry.sniff(lateACTL)?.result == .match(.png, .still), "acTL after IDAT is not an animation")
        #expect(try registry.isAnimated(still) == false)
    }

    @Test func webpChunks() {
        #expect(registry.sniff(Self.webp("VP8 "))?.result == .match(.webp, .still))
        #expect(registry.sniff(Self.webp("VP8L"))?.result == .match(.webp, .still))
        #expect(registry.sniff(Self.webp("VP8X", flags: 0x10))?.result == .match(.webp, .still), "alpha flag only")
        #expect(registry.sniff(Self.webp("VP8X", flags: 0x12))?.result == .match(.webp, .animated))
        #expect(registry.sniff(Self.bytes(["RIFF", [30, 0, 0, 0], "WAVE", "fmt "])) == nil, "RIFF but not WebP")
    }

    @Test func isobmffBrandsMajorOrCompatible() {
        #expect(registry.sniff(Self.ftyp(major: "avif", compatible: ["mif1", "miaf"]))?.result == .match(.avif, .still))
        #expect(registry.sniff(Self.ftyp(major: "avis", compatible: ["msf1"]))?.result == .match(.avif, .animated))
        #expect(registry.sniff(Self.ftyp(major: "mif1", compatible: ["avif", "miaf"]))?.result == .match(.avif, .still))
        #expect(registry.sniff(Self.ftyp(major: "msf1", compatible: ["miaf", "avis", "avif"]))?.result == .match(.avif, .animated))
        #expect(registry.sniff(Self.ftyp(major: "heic", compatible: ["mif1", "heic"])) == nil, "HEIC is not AVIF")
        #expect(registry.sniff(Self.ftyp(major: "isom", compatible: ["mp41"])) == nil, "an MP4 is not AVIF")
    }

    @Test func truncatedPrefixesAskForMoreBytes() {
        let avif = Self.ftyp(major: "mif1", compatible: ["miaf", "avis"])
        #expect(registry.sniff(avif.prefix(20), isComplete: false)?.result == .needMoreData(minimumLength: 24))
        #expect(registry.sniff(Data("GIF8".utf8), isComplete: false)?.result == .needMoreData(minimumLength: 6))
        #expect(registry.sniff(Data("RIFF".utf8), isComplete: false)?.result == .needMoreData(minimumLength: 21))
        #expect(registry.sniff(Data(Self.pngSignature.prefix(4)), isComplete: false)?.result == .needMoreData(minimumLength: 41))
        #expect(registry.sniff(Data("GIF8".utf8)) == nil, "a complete 4-byte file is nothing")
        #expect(registry.sniffLength == 144)
    }

    @Test func applicationCoderOverridesABuiltInFormat() {
        struct EverythingIsMine: AnimatedImageCoder {
            static let mine = ImageFormat(identifier: "mine", mediaType: "image/x-mine", fileExtensions: [])
            var formats: [ImageFormat] { [Self.mine] }
            var minimumSniffLength: Int { 0 }
            func sniff(_ prefix: Data) -> SniffResult { .match(Self.mine, .still) }
            func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
                try DemoAnimation.makeFrameSource(options: options)
            }
        }
        let r = CoderRegistry(builtIn: [GIFCoder()])
        r.register(EverythingIsMine())
        #expect(r.format(of: Data("GIF89a".utf8)) == EverythingIsMine.mine)
    }
}
