import Foundation
import Zoetrope

/// Standard input opened for decoding while it arrives (`frames -`, `info -`, `play -`).
///
/// `open` reads until the registry can choose a coder from the first bytes. A coder that
/// decodes incrementally gets those bytes appended and is returned as `.incremental`: the
/// caller appends the rest as it arrives (`feed`) and calls `finish()` at the end. Anything
/// else (a coder that needs the whole file, bytes no coder recognises, a stream that ends
/// before the choice) is read to the end and returned as `.whole`, for the whole-file path,
/// which then reports exactly what it reports for a file holding the same bytes.
enum StandardInputSource {
    /// The session, with the bytes read so far appended.
    case incremental(any IncrementalFrameSource)
    /// All of standard input (not empty), for `CoderRegistry.makeFrameSource(data:)`.
    case whole(Data)

    /// Reads from `reader` until a coder is chosen (see the type). Throws a `ToolError`
    /// naming standard input when it is empty, when it cannot be read, or when the first
    /// bytes are already enough to fail (the error the whole-file path gives for them).
    static func open(
        _ reader: StandardInputReader = StandardInputReader(), registry: CoderRegistry,
        options: DecodingOptions = .default
    ) throws -> StandardInputSource {
        var prefix = Data()
        var opened: (any IncrementalFrameSource)?
        var needsWholeFile = false
        // A redirected file's length is known: the session holds it in one allocation.
        let length = reader.remainingByteCount
        try reader.forEachChunk { chunk in
            prefix.append(contentsOf: chunk)
            do {
                opened = try registry.makeIncrementalSource(prefix: prefix, options: options)
            } catch AnimatedImageError.unrecognizedFormat, AnimatedImageError.unsupported {
                needsWholeFile = true
            } catch {
                throw failure(error, name: reader.name)
            }
            return opened == nil && !needsWholeFile
        }
        if let opened {
            if let length { opened.reserveCapacity(length) }
            return .incremental(opened)
        }
        if needsWholeFile { prefix.append(try reader.readToEnd()) }
        guard !prefix.isEmpty else { throw ToolError("\(reader.name): empty (no bytes before the end of input)") }
        return .whole(prefix)
    }

    /// Appends everything `reader` delivers to `source`, one piece as soon as it is read,
    /// calling `afterEach` with the snapshot after each piece; returns at the end of input
    /// (without calling `finish()`). A decoding error throws the `ToolError` the whole-file
    /// path gives; then the rest of the input stays unread.
    static func feed(
        _ source: any IncrementalFrameSource, from reader: StandardInputReader = StandardInputReader(),
        afterEach: (IncrementalSnapshot) throws -> Void = { _ in }
    ) throws {
        try reader.forEachChunk { chunk in
            let snapshot: IncrementalSnapshot
            do {
                snapshot = try source.append(contentsOf: chunk)
            } catch {
                throw failure(error, name: reader.name)
            }
            try afterEach(snapshot)
            return true
        }
    }

    /// `source.finish()`, with its error as the whole-file path words it.
    static func finish(_ source: any IncrementalFrameSource, name: String = StandardInputReader.displayName) throws -> AnimationInfo {
        do {
            return try source.finish()
        } catch {
            throw failure(error, name: name)
        }
    }

    /// A decoding error as one line naming the input (standard input, or the URL).
    static func failure(_ error: any Error, name: String = StandardInputReader.displayName) -> ToolError {
        if let error = error as? ToolError { return error }
        return ToolError("\(name): \(error)")
    }
}
