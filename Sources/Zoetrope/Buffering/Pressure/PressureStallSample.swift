/// One reading of Linux pressure-stall information for memory (`/proc/pressure/memory`):
/// the share of time some or all tasks were stalled waiting for memory.
package struct PressureStallSample: Hashable, Sendable {
    /// "some" tasks stalled, percent over the last 10 s.
    package var someAvg10: Double
    /// "full": all non-idle tasks stalled, percent over the last 10 s.
    package var fullAvg10: Double

    /// A reading of the two averages, in percent.
    package init(someAvg10: Double, fullAvg10: Double) {
        self.someAvg10 = someAvg10
        self.fullAvg10 = fullAvg10
    }

    /// Parses the file's text (`some avg10=0.00 avg60=… total=…` then a `full` line).
    /// nil when there is no `some` line.
    package init?(parsing text: String) {
        var some: Double?
        var full = 0.0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first else { continue }
            let avg10 = fields.dropFirst().first { $0.hasPrefix("avg10=") }.flatMap { Double($0.dropFirst(6)) }
            if kind == "some" { some = avg10 } else if kind == "full" { full = avg10 ?? 0 }
        }
        guard let some else { return nil }
        self.init(someAvg10: some, fullAvg10: full)
    }
}
