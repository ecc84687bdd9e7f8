import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeJPEG
import ZoetropeWebP

extension CoderRegistry {
    /// A new instance of every codec this package ships, in the order a registry asks
    /// them: GIF, APNG (also still PNG), WebP, AVIF, JPEG. The one list of built-in coders: the
    /// tool, `ZoetropeCodecs` and `registerBuiltInCoders()` all take it from here.
    public static func builtInCoders() -> [any AnimatedImageCoder] {
        [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder(), JPEGCoder()]
    }

    /// A new registry holding every codec this package ships, as built-in coders.
    public static func withBuiltInCoders() -> CoderRegistry {
        CoderRegistry(builtIn: builtInCoders())
    }

    /// Registers every codec this package ships (GIF, APNG and still PNG, WebP, AVIF, JPEG)
    /// with `.builtIn` priority, so coders the application registers are still asked first.
    ///
    /// Safe to repeat and to call from several threads at once: a codec whose type is
    /// already registered (by an earlier call, or by the application itself) is not
    /// registered again. Call it once at start-up on `CoderRegistry.shared`:
    ///
    /// ```swift
    /// CoderRegistry.shared.registerBuiltInCoders()
    /// let image = try AnimatedImage(data: data)
    /// ```
    public func registerBuiltInCoders() {
        for coder in Self.builtInCoders() {
            registerUnlessPresent(coder, priority: .builtIn)
        }
    }
}
