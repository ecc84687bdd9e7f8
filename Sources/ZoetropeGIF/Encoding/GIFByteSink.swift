import CGIF
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// giflib's `EGif*` writer pointed at memory: every byte giflib writes is appended to `data`.
final class GIFByteSink {
    /// The file so far.
    private(set) var data = Data()
    private var gif: UnsafeMutablePointer<GifFileType>?

    init() throws {
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(self).toOpaque()
        gif = EGifOpen(
            user,
            { file, bytes, count in
                guard let file, let user = file.pointee.UserData, let bytes, count > 0 else { return 0 }
                Unmanaged<GIFByteSink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
                return count
            }, &error)
        guard gif != nil else { throw GIFByteSink.failure("EGifOpen", error) }
        EGifSetGifVersion(gif, true)
    }

    deinit {
        if let gif { var error: Int32 = 0; EGifCloseFile(gif, &error) }
    }

    /// The logical screen, with `globalTable` (padded to a power of two) when given.
    func putScreen(width: Int, height: Int, globalTable: [UInt32]?) throws {
        let map = GIFByteSink.colorMap(globalTable)
        defer { if let map { GifFreeMapObject(map) } }
        guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) == GIF_OK else { throw failure("EGifPutScreenDesc") }
    }

    /// The NETSCAPE2.0 application extension storing `loopValue`.
    func putLoop(_ loopValue: Int) throws {
        var sub: [UInt8] = [1, UInt8(loopValue & 0xFF), UInt8(loopValue >> 8 & 0xFF)]
        var id = Array("NETSCAPE2.0".utf8)
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(gif, 11, &id) == GIF_OK,
            EGifPutExtensionBlock(gif, 3, &sub) == GIF_OK,
            EGifPutExtensionTrailer(gif) == GIF_OK
        else { throw failure("EGifPutExtension (NETSCAPE2.0)") }
    }

    /// The ICC's `ICCRGBG1` application extension holding `profile` in sub-blocks of at
    /// most 255 bytes (GIF has no other colour tagging).
    func putICCProfile(_ profile: [UInt8]) throws {
        var id = Array("ICCRGBG1012".utf8)
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(gif, 11, &id) == GIF_OK
        else { throw failure("EGifPutExtension (ICCRGBG1)") }
        var start = 0
        while start < profile.count {
            var block = Array(profile[start..<min(start + 255, profile.count)])
            guard EGifPutExtensionBlock(gif, Int32(block.count), &block) == GIF_OK else { throw failure("EGifPutExtension (ICCRGBG1)") }
            start += block.count
        }
        guard EGifPutExtensionTrailer(gif) == GIF_OK else { throw failure("EGifPutExtension (ICCRGBG1)") }
    }

    /// A graphic control extension and the image of `plan`, its LZW data at `codeSize` bits
    /// (`GIFFramePlan.codeSize`).
    func putFrame(_ plan: GIFFramePlan, codeSize: Int, delay: Int, disposal: Int32) throws {
        var gcb = GraphicsControlBlock(
            DisposalMode: disposal, UserInputFlag: false, DelayTime: Int32(delay),
            TransparentColor: Int32(plan.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var ext = [UInt8](repeating: 0, count: 4)
        let n = EGifGCBToExtension(&gcb, &ext)
        guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(n), &ext) == GIF_OK else { throw failure("EGifPutExtension (GCE)") }
        var table = plan.palette
        if table.count < plan.tableCount { table += [UInt32](repeating: 0xFF00_0000, count: plan.tableCount - table.count) }
        let map = plan.usesGlobalTable ? nil : GIFByteSink.colorMap(table)
        defer { if let map { GifFreeMapObject(map) } }
        if map == nil, let gif, let previous = gif.pointee.Image.ColorMap {
            // giflib's EGifPutImageDesc replaces the previous frame's local map by NULL
            // without freeing it when this frame has none (it frees it only to copy a new one).
            GifFreeMapObject(previous)
            gif.pointee.Image.ColorMap = nil
        }
        let r = plan.rect
        // A frame on the global table is coded with the bits its own indices need: giflib
        // takes the LZW minimum code size from the table, and GIF stores it per frame.
        let screenMap = plan.usesGlobalTable ? gif?.pointee.SColorMap : nil
        let tableBits = screenMap?.pointee.BitsPerPixel
        if let screenMap { screenMap.pointee.BitsPerPixel = Int32(codeSize) }
        let described = EGifPutImageDesc(gif, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), false, map)
        if let screenMap, let tableBits { screenMap.pointee.BitsPerPixel = tableBits }
        guard described == GIF_OK else { throw failure("EGifPutImageDesc") }
        var indices = plan.indices
        let ok = indices.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress, Int32($0.count)) }
        guard ok == GIF_OK else { throw failure("EGifPutLine") }
    }

    /// Writes the trailer and returns the file, with the global colour table (written by
    /// `putScreen`) replaced by `table`, which may be shorter (a power of two no smaller than
    /// any index a frame uses): the screen descriptor's size field follows it.
    func close(patchingGlobalTable table: [UInt32]) throws -> Data {
        guard let gif else { return data }
        self.gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw GIFByteSink.failure("EGifCloseFile", error) }
        // Header (6) + logical screen descriptor (7, the table's size in the low bits of its
        // packed byte, offset 10), then the table.
        let packed = data.startIndex + 10
        let written = data.count >= 13 && data[packed] & 0x80 != 0 ? 2 << Int(data[packed] & 0x07) : 0
        guard table.count >= 2, table.count & (table.count - 1) == 0, table.count <= written, data.count >= 13 + 3 * written
        else {
            throw AnimatedImageError.codecFailure(
                format: .gif, library: "giflib", message: "a global table of \(table.count) entries does not fit the \(written) written")
        }
        var rgb = [UInt8]()
        rgb.reserveCapacity(3 * table.count)
        for c in table { rgb += [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c >> 16 & 0xFF)] }
        data.replaceSubrange(data.startIndex + 13..<data.startIndex + 13 + 3 * written, with: rgb)
        data[packed] = data[packed] & 0xF8 | UInt8(table.count.trailingZeroBitCount - 1)
        return data
    }

    /// A giflib colour map of `table` padded to a power of two (at least 2 entries).
    static func colorMap(_ table: [UInt32]?) -> UnsafeMutablePointer<ColorMapObject>? {
        guard let table else { return nil }
        var size = 2
        while size < table.count { size <<= 1 }
        var colours = table.map { GifColorType(Red: UInt8($0 & 0xFF), Green: UInt8($0 >> 8 & 0xFF), Blue: UInt8($0 >> 16 & 0xFF)) }
        colours += [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - colours.count)
        return GifMakeMapObject(Int32(size), colours)
    }

    private func failure(_ call: String) -> AnimatedImageError {
        GIFByteSink.failure(call, gif?.pointee.Error ?? 0)
    }

    static func failure(_ call: String, _ code: Int32) -> AnimatedImageError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .codecFailure(format: .gif, library: "giflib", message: "\(call): \(text)")
    }
}
