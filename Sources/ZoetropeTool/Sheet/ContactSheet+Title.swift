import Zoetrope

extension ContactSheet {
    /// The line above the grid: file name, format, canvas, frames, plays and total time.
    static func title(for info: AnimationInfo, name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        let total = info.displayDurations().reduce(.zero, +)
        return "\(base)  \(info.format.identifier) \(info.canvasSize.width)×\(info.canvasSize.height)  "
            + "\(info.frameCount) frame\(info.frameCount == 1 ? "" : "s")  plays \(info.loopCount)  "
            + "\(Formatting.format1(total.milliseconds))ms per play"
    }
}
