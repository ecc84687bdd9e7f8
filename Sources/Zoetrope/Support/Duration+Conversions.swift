extension Duration {
    /// Whole nanoseconds (sub-nanosecond parts truncated toward zero, as `components`
    /// rounds them), saturating at `Int64.min` and `.max` for durations past ±292 years.
    package var wholeNanoseconds: Int64 {
        let (s, atto) = components
        let (ns, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return s < 0 ? .min : .max }
        let (sum, carried) = ns.addingReportingOverflow(atto / 1_000_000_000)
        return carried ? (s < 0 ? .min : .max) : sum
    }

    /// The duration in seconds, as a `Double` (for reports and rates).
    package var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
