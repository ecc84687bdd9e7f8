import Dispatch
import Zoetrope

extension GIFIndex {
    /// Walks the blocks of `bytes` (a whole file) without decoding pixels: the incremental
    /// parser fed everything at once. Throws when the header is unusable or a limit is
    /// passed; a file that breaks after some complete frames keeps them and records what
    /// went wrong in `truncation`.
    ///
    /// The LZW scan (`GIFCodeScan`; its share of decoding is in Docs/Benchmarks.md) is the
    /// part of the walk that costs: a file past `DecoderTuning.gifParallelScanMinimumBytes`
    /// on a machine with two or more cores first walks the blocks alone, then scans the
    /// images on every core. That result is
    /// kept only for a file that ends with its trailer and has no bad code anywhere; any
    /// other (where the order of the findings matters) is walked again one image at a time,
    /// so the index is the same either way.
    static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: Limits,
        partialFirstFrame: Bool = false, tuning: DecoderTuning = .standard
    ) throws(AnimatedImageError) -> GIFIndex {
        let threads = tuning.gifScanThreads(byteCount: bytes.count)
        if threads > 1, let index = try? parseScanningInParallel(bytes, limits: limits, threads: threads) {
            return index
        }
        var parser = GIFIndexParser(limits: limits)
        try parser.advance(bytes)
        return try parser.finish(receivedByteCount: bytes.count, partialFirstFrame: partialFirstFrame)
    }

    /// The block walk, then the scans on several threads; nil when the sequential walk must
    /// decide (a bad code, a file that does not end with its trailer, a thrown error).
    static func parseScanningInParallel(
        _ bytes: UnsafeRawBufferPointer, limits: Limits,
        threads: Int = ProcessorBudget.availableCores
    ) throws -> GIFIndex? {
        var parser = GIFIndexParser(limits: limits)
        parser.defersScans = true
        try parser.advance(bytes)
        guard case .trailer = parser.step else { return nil }
        let results = runScans(parser.deferredScans[...], in: bytes, threads: threads)
        guard !results.contains(where: { $0.badCode != nil }) else { return nil }
        parser.applyDeferredScans(results)
        return try parser.finish(receivedByteCount: bytes.count)
    }

    /// Runs `scans` over `bytes` (the whole file) on up to `threads` threads, results in order.
    static func runScans(
        _ scans: ArraySlice<GIFDeferredScan>, in bytes: UnsafeRawBufferPointer,
        threads: Int
    ) -> [GIFCodeScan.Result] {
        let scans = Array(scans)
        var results = [GIFCodeScan.Result](repeating: GIFCodeScan.Result(), count: scans.count)
        let threads = min(max(1, threads), max(1, scans.count))
        if threads == 1 {
            var scan = GIFCodeScan()
            for k in scans.indices { results[k] = scans[k].run(bytes, with: &scan) }
            return results
        }
        results.withUnsafeMutableBufferPointer { out in
            let shared = ScanBuffers(file: bytes, results: out)
            // Thread t scans images t, t + threads, …: each has its own code table.
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var scan = GIFCodeScan()
                for k in stride(from: t, to: scans.count, by: threads) {
                    shared.results[k] = scans[k].run(shared.file, with: &scan)
                }
            }
        }
        return results
    }
}

extension GIFIndexParser {
    /// The index, with the file ending after `receivedByteCount` bytes (all of them given
    /// to `advance`): a piece cut short becomes the truncation, and the rules that need the
    /// whole file apply (the canvas, one transparent frame for a file without images).
    /// Throws when the file cannot be decoded at all.
    func finish(receivedByteCount count: Int, partialFirstFrame: Bool = false) throws(AnimatedImageError) -> GIFIndex {
        var index = GIFIndex(
            screenSize: screenSize, canvasSize: canvasSize, frames: frames,
            storedLoopCount: storedLoopCount, truncation: truncation,
            iccProfile: iccProfile.map(ICCProfile.init(data:)))
        let partial = partialFirstFrame ? partialFirstImage : nil
        func stop(_ reason: String) -> AnimatedImageError {
            .truncated(format: .gif, completeFrames: frames.count, reason: reason)
        }
        switch step {
        case .header: throw .insufficientData(format: .gif, needed: 13, available: count)
        case .globalTable: throw .truncated(format: .gif, completeFrames: 0, reason: "the file ends inside the global colour table")
        case .block: index.truncation = stop("the file ends without a trailer")
        case .extensionLabel, .extensionData: index.truncation = stop("the file ends inside an extension")
        case .descriptor: index.truncation = stop("the file ends inside an image descriptor")
        case .localTable: index.truncation = stop("the file ends inside a local colour table")
        case .codeSize: index.truncation = stop("the file ends before the image data")
        case .imageData(let image): index.truncation = stop("the file ends inside the image data of frame \(image.ordinal)")
        case .trailer, .stopped: break
        }

        // The canvas grows to hold the first frame (set as its descriptor was read); later
        // frames are clipped.
        if index.frames.first?.rect.isEmpty ?? true {
            index.canvasSize = index.screenSize
        }
        try checkArea(of: index.canvasSize)
        try limits.checkSize(width: index.canvasSize.width, height: index.canvasSize.height, format: .gif)
        if index.frames.isEmpty, let partial {
            // Cut inside the first frame's data: that frame, drawn from what arrived.
            index.frames = [partial.record]
            index.partialFirstFrameEnd = partial.dataEnd
        }
        if index.frames.isEmpty {
            if let truncation = index.truncation { throw truncation }
            // A GIF with a screen but no image shows one transparent frame.
            index.frames.append(
                GIFFrameRecord(
                    descriptorOffset: 0, rect: PixelRect(x: 0, y: 0, width: 0, height: 0),
                    interlaced: false, delayCentiseconds: 0, rawDisposal: 0,
                    transparentIndex: nil))
        }
        try limits.checkPixelsPerPlay(frameCount: index.frames.count, canvas: index.canvasSize, format: .gif)
        index.warnings = warnings
        return index
    }

    /// The canvas as far as the file has said: nil before the first image descriptor; the
    /// screen grown to hold the first image after it (the screen when that image is empty).
    var currentCanvas: PixelSize? {
        guard sawDescriptor else { return nil }
        return frames.first?.rect.isEmpty == true ? screenSize : canvasSize
    }

    /// `currentCanvas`, failing as `finish` would once it is known to have no area (an
    /// empty screen that the first image does not grow), so a session stops there too.
    func checkedCurrentCanvas() throws(AnimatedImageError) -> PixelSize? {
        guard let canvas = currentCanvas else { return nil }
        try checkArea(of: canvas)
        return canvas
    }

    private func checkArea(of canvas: PixelSize) throws(AnimatedImageError) {
        if canvas.width == 0 || canvas.height == 0 {
            throw .invalidData(format: .gif, reason: "the logical screen is \(screenSize.width)×\(screenSize.height) and no image gives it a size")
        }
    }

    /// One line for the frames that draw colours their table lacks (Chromium draws them opaque black).
    var warnings: [String] {
        // Problems are recorded as their frame completes, so every one is about a frame of the index.
        let problems = colourProblems
        guard let first = problems.first else { return [] }
        let what =
            first.colors == 0
            ? "frame \(first.frame) has no colour table (neither local nor global)"
            : "frame \(first.frame) uses colour index \(first.index) outside its \(first.colors)-entry colour table"
        let more = problems.count > 1 ? " (and \(problems.count - 1) more frame\(problems.count == 2 ? "" : "s") like it)" : ""
        return ["\(what)\(more): indices without a colour are drawn opaque black, as Chromium does"]
    }
}

/// The file and the result slots the parallel scans share.
///
/// @unchecked Sendable: `concurrentPerform` returns only after every iteration has run,
/// while both buffers are alive; each iteration writes only its own result slots (image k
/// with k ≡ t modulo the thread count) and only reads the file, which nobody writes meanwhile.
private struct ScanBuffers: @unchecked Sendable {
    let file: UnsafeRawBufferPointer
    let results: UnsafeMutableBufferPointer<GIFCodeScan.Result>
}
