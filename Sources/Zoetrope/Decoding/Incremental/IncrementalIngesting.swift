/// The receiving side of a format's incremental source: the bytes, its resumable parser and
/// the snapshot. A format supplies how its parser advances and how the snapshot follows it;
/// appending, finishing and failing are the same for every format.
package protocol IncrementalIngesting {
    /// The whole-file index the parser ends with.
    associatedtype FinalIndex
    /// The format errors name before the bytes have said which.
    static var format: ImageFormat { get }
    /// The options the session decodes with.
    var options: DecodingOptions { get }
    /// The bytes received, held once.
    var bytes: IncrementalByteBuffer { get set }
    /// What the session knows so far.
    var snapshot: IncrementalSnapshot { get set }
    /// The final index, once the parser is complete or `finish()` was called.
    var final: FinalIndex? { get }
    /// The error that ended the session.
    var failure: AnimatedImageError? { get set }

    /// Parses on through the bytes received from where it stopped; true once the file is
    /// complete (its end marker read, or it broke).
    mutating func advanceParser() throws(AnimatedImageError) -> Bool
    /// Brings the snapshot up to the parser.
    mutating func update() throws(AnimatedImageError)
    /// Ends the data: sets `final` and the complete snapshot, or throws the whole-file error.
    mutating func complete() throws(AnimatedImageError)
}

extension IncrementalIngesting {
    /// Appends and parses `new`; throws the session's failure. The frames completed before
    /// a failure stay reported (and decodable). The bytes the session holds count against
    /// the allocation limit, checked before they are copied in, so an endless stream fails
    /// instead of exhausting memory.
    package mutating func append(_ new: UnsafeRawBufferPointer) throws(AnimatedImageError) -> IncrementalSnapshot {
        if let failure { throw failure }
        guard final == nil else { return snapshot }
        let total = bytes.count.addingReportingOverflow(new.count)
        do {
            try options.limits.checkAllocation(total.overflow ? nil : total.partialValue, format: snapshot.format ?? Self.format)
        } catch {
            fail(error)
            throw error
        }
        bytes.append(new)
        snapshot.receivedByteCount = bytes.count
        do {
            if try advanceParser() { try complete() } else { try update() }
        } catch {
            if final == nil { try? update() }
            fail(error)
            throw error
        }
        return snapshot
    }

    /// Ends the data: the whole-file info for the bytes received, or the whole-file error.
    package mutating func finish() throws(AnimatedImageError) -> AnimationInfo {
        if let failure { throw failure }
        if final == nil {
            do {
                try complete()
            } catch {
                fail(error)
                throw error
            }
        }
        return snapshot.info!
    }

    /// Ends the session with `error`.
    package mutating func fail(_ error: AnimatedImageError) {
        failure = error
        snapshot.state = .failed(error)
    }
}
