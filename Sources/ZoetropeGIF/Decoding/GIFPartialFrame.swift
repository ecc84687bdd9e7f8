import Zoetrope

/// A first frame whose data has not all arrived (`DecodingOptions.showsPartialFirstFrame`),
/// drawn from its complete sub-blocks: giflib is given the file up to their end followed
/// by a block terminator, and the pixels decoded before that end are drawn, the rest left
/// transparent, as for a frame whose data stops early.
enum GIFPartialFrame {
    static func decode(
        _ record: GIFFrameRecord, dataEnd: Int, file: UnsafeRawBufferPointer, canvas: PixelSize,
        options: DecodingOptions, colorTransform: (any ColorTransform)? = nil,
        into buffer: inout PixelBuffer
    ) throws {
        guard dataEnd > 0, dataEnd <= file.count else {
            throw AnimatedImageError.invalidData(format: .gif, reason: "frame 0: its data ends outside the file")
        }
        var bytes = [UInt8](UnsafeRawBufferPointer(rebasing: file[..<dataEnd]))
        bytes += [0x00, 0x3B]
        let placement = FramePlacement(rect: record.rect, dispose: record.disposal, blend: .over, isOpaque: false)
        var state = GIFDecodeState(canvasSize: canvas, keyFrames: KeyFrameTable([placement], canvasSize: canvas))
        state.compositor.colorTransform = colorTransform
        state.ensureCanvas()
        state.dataIsCut = true
        try bytes.withUnsafeBytes { raw in try state.render(0, input: (raw, [record])) }
        state.compositor.copyCanvas(into: &buffer, size: options.outputSize(forCanvas: canvas), format: options.pixelFormat)
    }
}
