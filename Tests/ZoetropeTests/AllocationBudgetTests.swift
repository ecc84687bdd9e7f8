import Testing
import Zoetrope

/// Session budgets add their parts with overflow checking and name the real total.
@Suite struct AllocationBudgetTests {
    @Test func theErrorNamesTheWholeTotal() {
        var budget = AllocationBudget(limits: Limits(maxAllocationBytes: 1000), format: .gif)
        budget.reserve(600)
        budget.reserve(3, bytesEach: 100)
        #expect(budget.total == 900)
        #expect(throws: Never.self) { try budget.check() }
        budget.reserve(PixelSize(width: 5, height: 10).rgbaByteCount)
        #expect(budget.total == 1100)
        #expect(throws: AnimatedImageError.limitExceeded(format: .gif, limit: .allocationBytes, requested: 1100, allowed: 1000)) {
            try budget.check()
        }
    }

    @Test func overflowIsRefusedEvenWithoutLimits() {
        for reserve: (inout AllocationBudget) -> Void in [
            {
                $0.reserve(.max); $0.reserve(1)
            },
            { $0.reserve(.max / 2, bytesEach: 3) },
            { $0.reserve(PixelSize(width: .max, height: 2).rgbaByteCount) },
            { $0.reserve(2, bytesEach: nil) },
            { $0.reserve(-1) },
            { $0.reserve(-2, bytesEach: 4) },
        ] {
            var budget = AllocationBudget(limits: .none, format: .webp)
            reserve(&budget)
            #expect(budget.overflowed && budget.total == .max)
            #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .allocationBytes, requested: .max, allowed: .max)) {
                try budget.check()
            }
        }
        var fits = AllocationBudget(limits: .none, format: .webp)
        fits.reserve(.max)
        #expect(!fits.overflowed)
        #expect(throws: Never.self) { try fits.check() }
    }

    @Test func limitsHelpersGoThroughTheBudget() {
        #expect(throws: AnimatedImageError.limitExceeded(format: .apng, limit: .allocationBytes, requested: .max, allowed: .max)) {
            try Limits.none.checkAllocation(nil, format: .apng)
        }
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .apng, limit: .allocationBytes, requested: 3 * 4_000_000,
                allowed: 10_000_000)
        ) {
            try Limits(maxAllocationBytes: 10_000_000).checkCanvases(PixelSize(width: 1000, height: 1000), count: 3, format: .apng)
        }
        let info = AnimationInfo(
            format: .gif, canvasSize: PixelSize(width: 1 << 30, height: 1 << 30),
            frameDurations: Array(repeating: .zero, count: 4), loopCount: .once, storedLoopValue: nil)
        #expect(info.allFramesByteCount == .max)
    }
}
