import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeWebP

extension CoderRegistry {
    /// A registry holding every codec module the tool links, in the order they are asked.
    static func withBuiltInCoders() -> CoderRegistry {
        CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder()])
    }
}
