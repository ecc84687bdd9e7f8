/// Waits until `condition` holds, up to `seconds`: a bound on a hang, not a timing claim
/// (it is long because test machines are shared and run the suite under the thread
/// sanitizer; a condition that holds returns at once). It suspends between checks, so a
/// main-actor caller lets main-actor work, such as a display's hand-overs, run meanwhile.
@MainActor public func waitFor(_ seconds: Int = 120, _ condition: @MainActor () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
