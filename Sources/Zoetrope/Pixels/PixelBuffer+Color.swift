extension PixelBuffer {
    /// Converts the pixels in place with `transform`. A premultiplied buffer is made
    /// straight, converted and premultiplied again (which loses precision where alpha is
    /// low); decoders convert before premultiplying instead
    /// (`copy(into:size:format:colorTransform:)`).
    package mutating func applyColorTransform(_ transform: any ColorTransform) {
        guard width > 0, height > 0 else { return }
        let premultiplied = format.alphaMode == .premultiplied
        if premultiplied { unpremultiplyAlpha() }
        let w = width, h = height, stride = bytesPerRow
        let deep = format.channelDepth == .sixteen
        bytes.withUnsafeMutableBytes { raw in
            if deep {
                transform.convert16(raw.baseAddress!, width: w, height: h, bytesPerRow: stride)
            } else {
                transform.convert(raw.baseAddress!, width: w, height: h, bytesPerRow: stride)
            }
        }
        if premultiplied { premultiplyAlpha() }
    }

    /// Copies this straight-alpha buffer into `output` at `size` in `format`'s alpha mode, as
    /// `copy(into:size:format:)` does, converting the values with `colorTransform` on the
    /// way: after downsampling (so the conversion costs one pass over the output's pixels)
    /// and before premultiplying (the conversion reads straight values). With no transform
    /// this is `copy(into:size:format:)` exactly.
    package func copy(
        into output: inout PixelBuffer, size: PixelSize, format: PixelFormat,
        colorTransform: (any ColorTransform)?
    ) {
        copy(
            placedAt: PixelRect(x: 0, y: 0, width: width, height: height), inCanvasOf: self.size, into: &output,
            size: size, format: format, colorTransform: colorTransform)
    }

    /// `copy(placedAt:inCanvasOf:into:size:format:)`, converting the values with
    /// `colorTransform` as `copy(into:size:format:colorTransform:)` does: the pixels that
    /// copy gives for the whole canvas.
    package func copy(
        placedAt region: PixelRect, inCanvasOf canvasSize: PixelSize, into output: inout PixelBuffer,
        size: PixelSize, format: PixelFormat, colorTransform: (any ColorTransform)?
    ) {
        guard let colorTransform else {
            copy(placedAt: region, inCanvasOf: canvasSize, into: &output, size: size, format: format)
            return
        }
        copy(placedAt: region, inCanvasOf: canvasSize, into: &output, size: size, format: format.straight)
        output.applyColorTransform(colorTransform)
        if format.alphaMode == .premultiplied { output.premultiplyAlpha() }
    }
}
