/// Where a coder sits in a `CoderRegistry`'s order.
public enum CoderPriority: Sendable, Hashable {
    /// The application's own coders: asked before the built-in ones, most recent first.
    case application
    /// The codec modules Zoetrope ships: asked after application coders, in registration order.
    case builtIn
}
