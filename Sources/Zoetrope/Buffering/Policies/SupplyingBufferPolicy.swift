/// A buffer policy that also says where frames come from (today only `SharedBufferPolicy`);
/// every other policy decides the window alone and frames come from the player's own pool.
protocol SupplyingBufferPolicy: FrameBufferPolicy {
    /// The supply of this image's frames at `size` in `pixelFormat`; `imageIdentity` names
    /// the image when the policy does not.
    func makeSupply(size: PixelSize, pixelFormat: PixelFormat, imageIdentity: String) -> any FrameSupply
}
