import Foundation

/// Waits (really) until `condition` holds, up to `seconds`. Not a timing claim: only that
/// something eventually happens.
func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
}
