/// Where a player's decoded frames come from and where they go back: the seam between the
/// player and its memory. A `FramePool` is the private supply (every frame is decoded here,
/// buffers are reused); a `SharedFrameSupply` hands out the frames of one image in a
/// `SharedFrameCache` (a frame another player decoded comes ready-made).
///
/// The player's `FrameStore` calls it under the player's lock; `DecodeOutlet`s it hands
/// out run on the decode thread, outside that lock.
protocol FrameSupply: Sendable {
    /// Frame `index`: ready (a lease is now held), to be decoded into a given buffer (a
    /// lease is held), or being decoded elsewhere (`waiter` runs when it lands).
    mutating func acquire(_ index: Int, waiter: @escaping @Sendable () -> Void) -> FrameLookup
    /// Gives back frame `index` (whose pixels are `buffer`): the player no longer holds it.
    mutating func release(_ index: Int, buffer: PixelBuffer)
    /// What a decode of frame `index` does with its result before the player sees it.
    func outlet(for index: Int) -> DecodeOutlet
    /// Keeps at most `count` idle buffers of the player's own.
    mutating func trimIdle(to count: Int)
    /// Frees every idle buffer this supply can reach (critical memory pressure).
    mutating func dropIdleBuffers()
    /// Forgets every idle buffer and counter (the player is reset).
    mutating func reset()
    /// Idle buffers held for the player.
    var idleCount: Int { get }
    /// Bytes of those idle buffers.
    var idleBytes: Int { get }
    /// Buffers created because none was idle.
    var buffersCreated: Int { get }
    /// Whether `other` hands out the same frames (so that frames held from one stay valid
    /// for the other).
    func isSame(as other: any FrameSupply) -> Bool
}
