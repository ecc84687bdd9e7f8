/// A buffer policy that also says where frames come from (today only `SharedBufferPolicy`);
/// every other policy decides the window alone and frames come from the player's own pool.
protocol SupplyingBufferPolicy: FrameBufferPolicy {
    /// The supply of this image's frames at `size` in `pixelFormat`.
    func makeSupply(size: PixelSize, pixelFormat: PixelFormat) -> any FrameSupply
}
