/// Waits until `condition` holds, up to `seconds`: a bound on a hang, not a timing claim
/// (it is long because test machines are shared and run the suite under the thread
/// sanitizer; a condition that holds returns at once). The one wait of the test targets.
///
/// It checks on the caller's actor (`isolation`), so the condition reads the caller's state
/// as it is, and it suspends for 5 ms between checks, so a main-actor caller lets main-actor
/// work, such as a display's hand-overs, run meanwhile.
///
/// - Returns: whether `condition` held, checked once more at the deadline; false means the
///   wait timed out.
public func waitFor(
    _ seconds: Double = 120, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
