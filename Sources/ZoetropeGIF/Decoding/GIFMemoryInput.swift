import CGIF

/// Where giflib's read callback takes bytes from: the file in memory and a position.
///
/// The base address is set at the start of every decoding call (inside the `Data`'s
/// `withUnsafeBytes`), so giflib never sees a pointer that outlives the bytes.
final class GIFMemoryInput {
    var base: UnsafeRawPointer?
    var count = 0
    var position = 0

    /// giflib's `InputFunc`: copies up to `length` bytes and advances; returns the count copied.
    static let read: @convention(c) (UnsafeMutablePointer<GifFileType>?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { gif, destination, length in
        guard let gif, let destination, length > 0, let user = gif.pointee.UserData else { return 0 }
        let input = Unmanaged<GIFMemoryInput>.fromOpaque(user).takeUnretainedValue()
        guard let base = input.base else { return 0 }
        let n = min(Int(length), input.count - input.position)
        guard n > 0 else { return 0 }
        destination.update(from: base.advanced(by: input.position).assumingMemoryBound(to: UInt8.self), count: n)
        input.position += n
        return Int32(n)
    }
}
