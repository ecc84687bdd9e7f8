/// Every frame of an `AnimatedImage`, in order, decoded one at a time as the consumer asks:
/// what `AnimatedImage.frames(delayPolicy:)` returns.
///
/// Each iteration opens its own decoding session, so iterating twice decodes twice and
/// never disturbs a player of the same image. Frames come from a `BulkFrameDecoder`: a
/// `ParallelFrameDecoding` source's frames decode ahead on worker threads (as many threads as
/// the image's `DecodingOptions.threadCount`, else the cores the process may use) while
/// `next()` composites them in order. Memory stays bounded: the session, the few payloads
/// decoded ahead, and each frame in a new buffer that it hands over, keeping none.
/// Frames decode off the caller's actor. When the consuming task is cancelled the
/// sequence ends (returns nil) before decoding another frame, and the workers stop. A frame that fails to
/// decode throws its `AnimatedImageError` after the frames before it; a file that was
/// truncated yields its complete frames, then throws the truncation.
public struct AnimatedImageFrames: AsyncSequence, Sendable {
    /// Each element: index, pixels and display duration.
    public typealias Element = AnimatedFrame
    /// Every failure is an `AnimatedImageError`.
    public typealias Failure = AnimatedImageError

    private let image: AnimatedImage
    private let delayPolicy: DelayPolicy

    init(image: AnimatedImage, delayPolicy: DelayPolicy) {
        self.image = image
        self.delayPolicy = delayPolicy
    }

    /// Starts an iteration; the decoding session opens on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(image: image, delayPolicy: delayPolicy)
    }

    /// Decodes the next frame each time it is asked.
    public struct Iterator: AsyncIteratorProtocol {
        /// Each element: index, pixels and display duration.
        public typealias Element = AnimatedFrame
        /// Every failure is an `AnimatedImageError`.
        public typealias Failure = AnimatedImageError

        private let image: AnimatedImage
        private let delayPolicy: DelayPolicy
        private var run: BulkFrameDecoder?
        private var finished = false

        init(image: AnimatedImage, delayPolicy: DelayPolicy) {
            self.image = image
            self.delayPolicy = delayPolicy
        }

        /// The next frame, nil after the last one or once the task is cancelled.
        public mutating func next() async throws(AnimatedImageError) -> AnimatedFrame? {
            guard !finished else { return nil }
            guard !Task.isCancelled else { return finish() }
            do {
                let run = try self.run ?? BulkFrameDecoder(source: image.makeFrameSource())
                self.run = run
                let info = run.source.info
                var pixels = PixelBuffer()
                guard let index = try run.nextFrame(into: &pixels) else {
                    _ = finish()
                    if let truncation = info.truncation { throw truncation }
                    return nil
                }
                return AnimatedFrame(
                    index: index, pixels: pixels,
                    duration: delayPolicy.displayDuration(for: info.frameDurations[index]))
            } catch let error as AnimatedImageError {
                _ = finish()
                throw error
            } catch {
                _ = finish()
                throw .codecFailure(
                    format: image.info.format, library: String(describing: type(of: error)),
                    message: String(describing: error))
            }
        }

        private mutating func finish() -> AnimatedFrame? {
            finished = true
            run?.cancel()
            run = nil
            return nil
        }
    }
}
