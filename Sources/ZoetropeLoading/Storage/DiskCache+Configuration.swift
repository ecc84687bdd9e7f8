import Foundation

extension DiskCache {
    /// Where a disk cache keeps its entries and how much room they may take.
    public struct Configuration: Sendable, Hashable {
        /// The folder the entries live in, created when first needed. It belongs to the
        /// cache: a file in it that is not a whole entry (a foreign file, a torn or
        /// corrupt one) is removed rather than served.
        public var folder: URL
        /// The most bytes the entries may take together; least recently used entries are
        /// removed past it. A response larger than this alone is not kept.
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
