/// A graphic control extension waiting for the next image; the last one before an image wins.
struct GIFGraphicControl: Hashable, Sendable {
    var delayCentiseconds = 0
    var disposal = 0
    var transparentIndex: Int?
}
