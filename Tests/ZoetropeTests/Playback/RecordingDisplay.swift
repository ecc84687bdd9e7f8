@testable import Zoetrope

/// A display that records every frame shown: its index, the index its pixels say, and
/// the address of its storage (to prove buffers are reused).
nonisolated final class RecordingDisplay: ConcurrentAnimationDisplay {
    struct Shown: Equatable {
        var index: Int
        var pixelIndex: Int
        var storage: UInt
    }
    private let state = Locked<(shown: [Shown], visible: Bool)>(([], true))

    func show(_ frame: PixelBuffer, index: Int) {
        let pixelIndex = frame.bytes.isEmpty ? -1 : SyntheticFrameSource.frameIndex(in: frame)
        let address = frame.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        state.withLock { $0.shown.append(Shown(index: index, pixelIndex: pixelIndex, storage: address)) }
    }

    var isVisible: Bool {
        get { state.withLock { $0.visible } }
        set { state.withLock { $0.visible = newValue } }
    }

    func setVisible(_ v: Bool) { state.withLock { $0.visible = v } }

    var shown: [Shown] { state.withLock { $0.shown } }
    var indexes: [Int] { shown.map(\.index) }
}
