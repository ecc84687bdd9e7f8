#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ordered set of coders that decides formats from content, safe to share across threads.
///
/// Application coders are asked first (most recently registered first), then built-in
/// coders in registration order. The registry never runs a coder under its lock: it copies
/// the list and asks each coder outside it, so a slow or re-entrant coder cannot deadlock it.
/// The file name or URL never takes part: a `.webp` file may hold a GIF.
public final class CoderRegistry: Sendable {
    private struct Entry: Sendable {
        let registration: CoderRegistration
        let priority: CoderPriority
        let coder: any AnimatedImageCoder
    }

    private struct State {
        var application: [Entry] = []
        var builtIn: [Entry] = []
        var nextID: UInt64 = 1
    }

    private let state = Locked(State())

    /// A registry for the whole process. It starts empty: the core knows no codec, so the
    /// application registers the codec modules it links (for example `GIFCoder()`), or
    /// all of them with `registerBuiltInCoders()` from the `ZoetropeCodecs` module.
    public static let shared = CoderRegistry()

    /// An empty registry, or one holding `builtIn` coders in order.
    public init(builtIn: [any AnimatedImageCoder] = []) {
        for coder in builtIn { register(coder, priority: .builtIn) }
    }

    /// Adds a coder. Application coders go in front of every coder already there.
    @discardableResult
    public func register(_ coder: any AnimatedImageCoder, priority: CoderPriority = .application) -> CoderRegistration {
        state.withLock { s in Self.add(coder, priority: priority, to: &s) }
    }

    /// Adds `coder` unless a coder of the same type is already registered (at any
    /// priority), as one atomic step: concurrent calls never register the type twice.
    /// Returns the new registration, or nil when the type was already there.
    @discardableResult
    package func registerUnlessPresent(_ coder: any AnimatedImageCoder, priority: CoderPriority = .application) -> CoderRegistration? {
        let type = ObjectIdentifier(Swift.type(of: coder))
        return state.withLock { s in
            guard !(s.application + s.builtIn).contains(where: { ObjectIdentifier(Swift.type(of: $0.coder)) == type }) else { return nil }
            return Self.add(coder, priority: priority, to: &s)
        }
    }

    private static func add(_ coder: any AnimatedImageCoder, priority: CoderPriority, to s: inout State) -> CoderRegistration {
        let entry = Entry(registration: CoderRegistration(id: s.nextID), priority: priority, coder: coder)
        s.nextID += 1
        switch priority {
        case .application: s.application.insert(entry, at: 0)
        case .builtIn: s.builtIn.append(entry)
        }
        return entry.registration
    }

    /// Removes one registration. Returns whether it was there.
    @discardableResult
    public func unregister(_ registration: CoderRegistration) -> Bool {
        state.withLock { s in
            let before = s.application.count + s.builtIn.count
            s.application.removeAll { $0.registration == registration }
            s.builtIn.removeAll { $0.registration == registration }
            return s.application.count + s.builtIn.count != before
        }
    }

    /// Removes every coder that can produce `format`. Returns how many were removed.
    ///
    /// The coders' `formats` are read outside the lock (from a copy of the list); a coder
    /// registered meanwhile stays.
    @discardableResult
    package func unregisterAll(producing format: ImageFormat) -> Int {
        let entries = state.withLock { s in s.application + s.builtIn }
        let doomed = Set(entries.filter { $0.coder.formats.contains(format) }.map(\.registration))
        guard !doomed.isEmpty else { return 0 }
        return state.withLock { s in
            let before = s.application.count + s.builtIn.count
            s.application.removeAll { doomed.contains($0.registration) }
            s.builtIn.removeAll { doomed.contains($0.registration) }
            return before - s.application.count - s.builtIn.count
        }
    }

    /// The coders in the order they are asked.
    public var coders: [any AnimatedImageCoder] {
        state.withLock { s in (s.application + s.builtIn).map(\.coder) }
    }

    /// Every file extension of every format the registered coders produce, in the order
    /// the coders are asked, without repeats (`gif`, `png`, `apng`, `webp`, `avif`, `avifs`
    /// with the built-in coders). Used to find a resource by name; never to pick a coder.
    package var fileExtensions: [String] {
        var seen = Set<String>()
        return coders.flatMap(\.formats).flatMap(\.fileExtensions).filter { seen.insert($0).inserted }
    }

    /// The longest prefix any coder asks for: read this many bytes before sniffing a stream.
    package var sniffLength: Int {
        coders.map(\.minimumSniffLength).max() ?? 0
    }

    /// Asks each coder in order. `isComplete` says `data` is the whole file: then a coder
    /// that wants more bytes is a non-match; otherwise the registry answers `.needMoreData`
    /// rather than let a later coder win on too short a prefix.
    package func sniff(_ data: Data, isComplete: Bool = true) -> (coder: any AnimatedImageCoder, result: SniffResult)? {
        for coder in coders {
            let result = coder.sniff(data)
            switch result {
            case .match:
                return (coder, result)
            case .noMatch:
                continue
            case .needMoreData:
                if isComplete { continue }
                return (coder, result)
            }
        }
        return nil
    }

    /// The format of `data` (the whole file), or nil when no coder recognises it.
    public func format(of data: Data) -> ImageFormat? {
        if case .match(let format, _)? = sniff(data)?.result { return format }
        return nil
    }

    /// The coder that recognises `data` (the whole file). Throws `.insufficientData` when
    /// `data` is a non-empty prefix of some format's signature too short to decide (such as
    /// `GIF8`, or a WebP header cut before its first chunk), naming that format and the
    /// bytes it needs; `.unrecognizedFormat` when no coder recognises it at all.
    package func coder(for data: Data) throws(AnimatedImageError) -> any AnimatedImageCoder {
        try match(data).coder
    }

    /// The first coder that matches complete `data`, with what it said.
    private func match(_ data: Data) throws(AnimatedImageError) -> (coder: any AnimatedImageCoder, kind: AnimationKind) {
        var tooShort: (format: ImageFormat?, needed: Int)?
        for coder in coders {
            switch coder.sniff(data) {
            case .match(_, let kind):
                return (coder, kind)
            case .needMoreData(let needed):
                if tooShort == nil, !data.isEmpty, needed > data.count { tooShort = (coder.formats.first, needed) }
            case .noMatch:
                continue
            }
        }
        if let tooShort {
            throw .insufficientData(format: tooShort.format, needed: tooShort.needed, available: data.count)
        }
        throw .unrecognizedFormat(prefix: Array(data.prefix(16)))
    }

    /// Starts decoding `data` with the coder its content selects.
    public func makeFrameSource(data: Data, options: DecodingOptions = .default) throws -> any FrameSource {
        try coder(for: data).makeFrameSource(data: data, options: options)
    }

    /// Still or animated? Answered from the first bytes when they tell (a PNG without
    /// `acTL`, a WebP without the animation flag, an AVIF without the `avis` brand), so a
    /// still image never pays for indexing frames; otherwise by reading the header.
    public func isAnimated(_ data: Data, options: DecodingOptions = .default) throws -> Bool {
        let (coder, kind) = try match(data)
        switch kind {
        case .still: return false
        case .animated, .unknown: return try coder.makeFrameSource(data: data, options: options).info.isAnimated
        }
    }
}
