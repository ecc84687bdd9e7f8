// Runs the app view sample (Sample.swift) on FILE, on the main actor: the frames the view
// showed and whether the player animates after pause, the frames, the timeline, the error.
// Usage: AppViewSample FILE
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: AppViewSample FILE\n".utf8))
    exit(2)
}
try await demo(path: CommandLine.arguments[1])
