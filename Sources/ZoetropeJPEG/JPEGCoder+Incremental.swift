import Zoetrope

extension JPEGCoder: IncrementalDecoding {
    /// A session that reads the JPEG with libjpeg-turbo as bytes are appended, suspending where
    /// they end (buffered-image mode).
    ///
    /// A progressive file shows its scans as they arrive: once its first scan is in, frame 0
    /// counts and decodes to the full-size coarse picture of the scans so far; each later
    /// scan replaces it (`IncrementalSnapshot.revision` grows, as when frames are withdrawn),
    /// and at the end frame 0 is exactly the whole-file frame. A sequential (baseline) file
    /// shows nothing until its end-of-image marker, and is then decoded as from the whole file. The canvas, colour and first warnings are
    /// known once the header is in. Limits, the scan-data bound and the allocation budget
    /// (which counts libjpeg-turbo's whole-image coefficients for a progressive file) are checked before anything
    /// is allocated, and `finish()` gives the whole-file info or error (a file cut short is
    /// `.truncated`, as from the whole file, and the picture shown so far still decodes).
    public func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource {
        JPEGIncrementalSource(options: options)
    }
}
