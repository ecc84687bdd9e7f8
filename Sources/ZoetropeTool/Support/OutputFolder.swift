import Foundation

/// The folder a command writes its files into (`frames --output`, `convert --output-dir`).
enum OutputFolder {
    /// Creates `path` and its parents when missing; a file in the way is "not a folder".
    static func create(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ToolError("\(path): not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ToolError("\(path): cannot create the output folder")
        }
    }
}
