import Zoetrope

/// What the marker walk learns about a JPEG before any pixel is decoded.
struct JPEGHeader: Sendable, Hashable {
    /// The stored picture's size (before orientation).
    var storedSize: PixelSize
    /// Components in the frame: 1 (greyscale), 3 (YCbCr or RGB), 4 (CMYK or YCCK).
    var components: Int
    /// A progressive (SOF2, SOF6, SOF10, SOF14) frame, decoded from coefficients held whole.
    var isProgressive: Bool
    /// The Exif orientation, `.up` when the file stores none.
    var orientation: JPEGOrientation
    /// Whether an Adobe `APP14` segment is present: four-component files with one store
    /// inverted CMYK, as Photoshop writes it.
    var hasAdobeMarker: Bool
    /// The ICC profile, joined from its `APP2` `ICC_PROFILE` chunks when every one of them
    /// is there; nil otherwise.
    var iccProfile: [UInt8]? = nil
    /// The first Exif block (`APP1`, from its TIFF header on), as stored.
    var exif: [UInt8]? = nil
    /// The first XMP packet (`APP1` `http://ns.adobe.com/xap/1.0/`).
    var xmp: [UInt8]? = nil
    /// What the file gets wrong that the walk and libjpeg-turbo skip, one line each
    /// (`AnimationInfo.warnings`).
    var warnings: [String] = []
    /// Bytes of entropy-coded data after the SOS headers, all scans together.
    var scanByteCount = 0
    /// The fewest such bytes that can fill the frame (`JPEGFrameHeader.minimumScanBytes`).
    var minimumScanByteCount = 0

    /// Throws when the scans hold less data than can fill the frame: a few hundred bytes
    /// declaring 8192×8192 (an end-of-image marker after them) would cost a whole canvas
    /// of grey, so such a file is refused before anything is allocated, as a file cut short is.
    func checkScanData() throws(AnimatedImageError) {
        guard scanByteCount >= minimumScanByteCount else {
            throw .truncated(
                format: .jpeg, completeFrames: 0,
                reason: "its image data (\(scanByteCount) bytes) cannot fill the \(storedSize) frame it declares "
                    + "(at least \(minimumScanByteCount) bytes)")
        }
    }

    /// The size the picture is displayed at, after orientation.
    var displayedSize: PixelSize { orientation.displayedSize(of: storedSize) }
}
