import Zoetrope

/// A JPEG decoding session over a file that is still arriving
/// (`JPEGCoder.makeIncrementalSource`).
///
/// Two locks: the receiving side (bytes, libjpeg-turbo, snapshot), which draws a picture
/// when a scan completes, and the latest picture, so a decode never waits for bytes being read
/// and an append never waits for a frame being handed out.
final class JPEGIncrementalSource: IngestingFrameSource, IncrementalDecodeWarningReporting {
    let options: DecodingOptions
    let ingest: Locked<JPEGIncrementalIngest>
    private let picture: Locked<JPEGScanPicture?>

    init(options: DecodingOptions) {
        self.options = options
        let picture = Locked<JPEGScanPicture?>(nil)
        self.picture = picture
        ingest = Locked(JPEGIncrementalIngest(options: options, pictures: picture))
    }

    /// libjpeg-turbo's first warning (corrupt data it concealed, say), which decoding went on
    /// past, as `JPEGFrameSource.decodeWarnings` reports it.
    var decodeWarnings: [String] {
        ingest.withLock { state in
            state.decodeWarning.flatMap { state.snapshot.warnings.contains($0) ? nil : [$0] } ?? []
        }
    }

    /// The file's bytes, libjpeg-turbo's coefficients while it reads, and the latest picture.
    var retainedByteCount: Int {
        let held = ingest.withLock { $0.bytes.capacity + $0.heldCoefficients }
        return held + picture.withLock { $0.map { $0.raster.bytes.count } ?? 0 }
    }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        let snapshot = self.snapshot
        guard index == 0, snapshot.frameCount == 1, let latest = picture.withLock({ $0 }) else {
            throw IncrementalSnapshot.unavailableError(index, in: snapshot)
        }
        latest.write(into: &buffer, options: options)
    }
}
