/// How a player names its image in a `SharedFrameCache`: a name known now (the policy's
/// `imageKey`, a `load`'s `sharedImageKey`, a bare source's object identity), or an
/// `AnimatedImage`'s content hash, computed off the caller's thread on first need.
enum SharedImageName: Sendable {
    case known(String)
    case content(ImageContentIdentity)

    /// The name now, or nil while it is being computed (`waiter` then runs when it is known).
    func resolve(orWhenKnown waiter: @escaping @Sendable () -> Void) -> String? {
        switch self {
        case .known(let name): name
        case .content(let identity): identity.name(orWhenKnown: waiter)
        }
    }

    /// The name if known, without starting anything.
    var knownName: String? {
        switch self {
        case .known(let name): name
        case .content(let identity): identity.knownName
        }
    }

    /// Whether both name the same image (the same content identity, or equal names).
    func isSame(as other: SharedImageName) -> Bool {
        switch (self, other) {
        case (.known(let a), .known(let b)): a == b
        case (.content(let a), .content(let b)): a === b || (a.knownName != nil && a.knownName == b.knownName)
        default: false
        }
    }
}
