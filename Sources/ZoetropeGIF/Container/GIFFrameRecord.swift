import Zoetrope

/// What the indexing pass learns about one image descriptor, before any pixel is decoded.
struct GIFFrameRecord: Hashable, Sendable {
    /// Offset of the first byte after the image separator (0x2C): where giflib's
    /// `DGifGetImageDesc` starts reading this frame.
    var descriptorOffset: Int
    /// The frame's rectangle as stored (not clipped to the canvas).
    var rect: PixelRect
    var interlaced: Bool
    /// The delay from the graphic control extension, in centiseconds (0 when there is none).
    var delayCentiseconds: Int
    /// The disposal method as stored (0–7).
    var rawDisposal: Int
    /// The transparent colour index, when the graphic control extension enables one.
    var transparentIndex: Int?

    /// What happens to the frame's rectangle afterwards: 2 clears it, 3 (and 4, a common
    /// mistake for 3) restores it; 0, 1 and the undefined 5–7 leave the frame in place.
    var disposal: DisposeMode {
        switch rawDisposal {
        case 2: .background
        case 3, 4: .previous
        default: .none
        }
    }

    /// The raw delay as an exact duration.
    var duration: FrameDuration { .centiseconds(Int64(delayCentiseconds)) }

    /// The frame's placement for the shared restart-point rule (`KeyFrameTable`): GIF
    /// frames blend over the canvas and are opaque where they have no transparent index.
    var placement: FramePlacement {
        FramePlacement(rect: rect, dispose: disposal, blend: .over, isOpaque: transparentIndex == nil)
    }
}
