import CGIF
import Zoetrope

extension GIFDecoderState {
    /// Decodes a frame that covers the whole canvas without transparency straight into
    /// `output` (shaped like the canvas), leaving the canvas alone. Returns false, having
    /// drawn only part of `output`, when the frame's LZW data ends before its last pixel.
    mutating func drawStandalone(_ i: Int, record: GIFFrameRecord, bytes: UnsafeRawBufferPointer,
                                 into output: UnsafeMutableRawPointer) throws -> Bool {
        let canvasWidth = compositor.canvas.width, canvasHeight = compositor.canvas.height
        let stride = canvasWidth * 4
        let handle = try openHandle(bytes)
        do {
            try handle.beginImage(at: record.descriptorOffset)
        } catch {
            self.handle = nil
            throw GIFDecoderState.frameError(error, frame: i)
        }
        let colorCount = loadPalette(handle.colorMap)
        let width = record.rect.width
        if line.count < width { line = [UInt8](repeating: 0, count: width) }
        var line = self.line, palette = self.palette
        self.line = []
        self.palette = []
        defer { self.line = line; self.palette = palette }
        // The frame starts at the canvas origin (it covers it); rows past the canvas bottom
        // of a top-to-bottom frame are never shown.
        let rows = record.interlaced ? record.rect.height : canvasHeight
        var complete = true
        try line.withUnsafeMutableBufferPointer { lineBuffer in
            try palette.withUnsafeBufferPointer { lut in
                let src = lineBuffer.baseAddress!
                var rowOrder = GIFRowOrder(height: record.rect.height, interlaced: record.interlaced)
                for _ in 0..<rows {
                    let y = rowOrder.next()
                    if let code = handle.readLine(src, count: width) {
                        self.handle = nil
                        guard code == D_GIF_ERR_EOF_TOO_SOON else {
                            throw GIFDecoderState.frameError(GIFLibHandle.error(code, context: "decoding"), frame: i)
                        }
                        complete = false
                        return
                    }
                    if colorCount < 256 {
                        try GIFDecoderState.checkIndices(src, count: width, colorCount: colorCount, transparent: nil, frame: i)
                    }
                    if y < canvasHeight {
                        GIFDecoderState.drawRow(src, to: output + y * stride, count: canvasWidth,
                                                lut: lut.baseAddress!, transparent: nil)
                    }
                }
            }
        }
        return complete
    }
}
