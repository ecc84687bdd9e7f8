extension GIFLZWMatcher {
    /// `apply` for a frame with unchanged pixels, three ways, keeping the smallest result:
    /// unchanged pixels chosen pixel by pixel, left transparent in stretches of several
    /// colours (`GIFKeepStretches`) with the rest drawn, or those stretches transparent and
    /// the rest chosen pixel by pixel. Each suits other frames (timer.gif's exact GIF: 0.6 %
    /// smaller than the first way alone); a tie keeps the first. Returns the bits kept.
    @discardableResult
    mutating func applyBestLayout(
        to indices: inout [UInt8], flexible: [Bool], held: [Bool]?, colours: [UInt32], transparent: Int,
        tableSize: Int, budget: Int, heldBudget: Int
    ) -> Int {
        let stretches = GIFKeepStretches(indices: indices, flexible: flexible, transparent: UInt8(transparent))
        // With no stretch left transparent the third layout is the first one again.
        let tries: [[Bool]?] = stretches.indices == indices ? [nil] : [nil, stretches.flexible]
        var bestBits = apply(
            to: &indices, flexible: flexible, held: held, colours: colours, transparent: transparent, tableSize: tableSize,
            budget: budget, heldBudget: heldBudget)
        for free in tries {
            var tried = stretches.indices
            let bits = apply(
                to: &tried, flexible: free, held: held, colours: colours, transparent: transparent, tableSize: tableSize,
                budget: budget, heldBudget: heldBudget)
            if bits < bestBits { (indices, bestBits) = (tried, bits) }
        }
        return bestBits
    }
}
