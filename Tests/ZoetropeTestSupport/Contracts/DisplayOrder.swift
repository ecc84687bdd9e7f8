/// What a display of a playing player can rely on, as a check: the frames it was shown are
/// the frames the player showed, in the player's order, except for the ones the player
/// reports it skipped (a main actor that falls more than 8 frames behind skips the oldest
/// waiting frames; `PlayerDiagnostics.framesSkippedByDisplay` counts them).
public enum DisplayOrder {
    /// What breaks that promise for a player that played a forward-looping animation of
    /// `frameCount` frames from frame 0, showed `produced` frames (`framesShown`) with no
    /// frame skipped to keep time, of which `skipped` never reached the display, and a
    /// display that received `shown`, once every frame on its way has arrived.
    public static func violations(shown: [Int], frameCount: Int, produced: Int, skipped: Int) -> [String] {
        var problems: [String] = []
        if shown.count + skipped != produced {
            problems.append("\(shown.count) frames shown and \(skipped) skipped, but the player showed \(produced)")
        }
        // The player's order is 0, 1, …, frameCount − 1, 0, 1, …: `shown` must be a
        // subsequence of its first `produced` frames (matched as early as possible).
        var k = 0
        for (n, index) in shown.enumerated() {
            while k < produced, k % frameCount != index { k += 1 }
            if k == produced {
                problems.append("shown frame \(n) (index \(index)) is out of play order: \(shown)")
                break
            }
            k += 1
        }
        // Only the oldest waiting frames are skipped: the newest always arrives.
        if produced > 0, shown.last != (produced - 1) % frameCount {
            problems.append("the last frame shown is \(shown.last.map(String.init) ?? "none"), not the player's last, \((produced - 1) % frameCount)")
        }
        return problems
    }
}
