import Foundation

extension DiskCache {
    /// Where a disk cache keeps its entries and how much room they may take.
    public struct Configuration: Sendable, Hashable {
        /// The folder the entries live in, created when first needed. It may be any
        /// folder: the cache touches only the files it wrote (`zoetrope-*.entry`, its
        /// temporary files and a `.zoetrope-cache` marker) and leaves everything else.
        public var folder: URL
        /// The most bytes the entries (each with its 4 KiB header) may take together; least
        /// recently used entries are removed past it. A response larger than this alone is
        /// not kept.
        public var sizeLimit: Int

        /// A cache in `folder` holding up to `sizeLimit` bytes.
        public init(folder: URL, sizeLimit: Int) {
            self.folder = folder
            self.sizeLimit = sizeLimit
        }

        /// `Zoetrope/Images` in the user's caches folder (`~/.cache` on Linux,
        /// `~/Library/Caches` on Apple platforms), 256 MiB.
        public static var standard: Configuration {
            let caches =
                FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return Configuration(
                folder: caches.appendingPathComponent("Zoetrope/Images", isDirectory: true),
                sizeLimit: 256 << 20)
        }
    }
}
