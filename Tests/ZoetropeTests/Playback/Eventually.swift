import Foundation

/// Waits (really) until `condition` holds, up to `seconds`. Not a timing claim: only that
/// something eventually happens (the bound is long because CI machines are shared and the
/// suite runs under the thread sanitizer; a passing check returns at once).
func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}
