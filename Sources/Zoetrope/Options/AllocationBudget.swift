/// The bytes a decoding session will hold, added up part by part with overflow checking and
/// then checked once against `Limits.maxAllocationBytes`, so the error names the real total.
///
/// ```swift
/// var budget = AllocationBudget(limits: options.limits, format: info.format)
/// budget.reserve(canvas.rgbaByteCount)              // nil (does not fit an Int) counts as overflow
/// budget.reserve(frames.count, bytesEach: MemoryLayout<Record>.stride)
/// try budget.check()
/// ```
package struct AllocationBudget: Hashable, Sendable {
    /// The limits checked against.
    package let limits: Limits
    /// The format named in the error.
    package let format: ImageFormat
    /// The sum so far; `Int.max` once it has overflowed.
    package private(set) var total = 0
    /// Whether a part, or the sum, did not fit an `Int` (or a part was negative).
    package private(set) var overflowed = false

    /// An empty budget under `limits` for a session decoding `format`.
    package init(limits: Limits, format: ImageFormat) {
        self.limits = limits
        self.format = format
    }

    /// Adds `bytes`; nil (a size that did not fit an `Int`) or a negative count overflows.
    package mutating func reserve(_ bytes: Int?) {
        guard !overflowed else { return }
        guard let bytes, bytes >= 0 else { return overflow() }
        let (sum, o) = total.addingReportingOverflow(bytes)
        if o { overflow() } else { total = sum }
    }

    /// Adds `count` × `bytesEach`, checking the product too; a nil `bytesEach` (a size that
    /// did not fit an `Int`) overflows.
    package mutating func reserve(_ count: Int, bytesEach: Int?) {
        guard let bytesEach, count >= 0, bytesEach >= 0 else { return overflow() }
        let (product, o) = count.multipliedReportingOverflow(by: bytesEach)
        reserve(o ? nil : product)
    }

    /// Throws `.limitExceeded(.allocationBytes)` naming the total (`Int.max` when it
    /// overflowed) when it passes `limits.maxAllocationBytes`.
    package func check() throws(AnimatedImageError) {
        if overflowed || total > limits.maxAllocationBytes {
            throw .limitExceeded(format: format, limit: .allocationBytes, requested: total, allowed: limits.maxAllocationBytes)
        }
    }

    private mutating func overflow() {
        overflowed = true
        total = .max
    }
}
