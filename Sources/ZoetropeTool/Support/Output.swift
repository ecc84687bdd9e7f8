import Foundation

/// Where a command writes. The real tool writes to the standard streams; tests capture.
struct Output {
    var standardOutput: (String) -> Void = { s in FileHandle.standardOutput.write(Data((s + "\n").utf8)) }
    var standardError: (String) -> Void = { s in FileHandle.standardError.write(Data((s + "\n").utf8)) }

    func print(_ s: String) { standardOutput(s) }
    func error(_ s: String) { standardError(s) }
}
