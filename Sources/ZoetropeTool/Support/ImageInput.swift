import Foundation
import Zoetrope
import ZoetropeDemo

/// What a command reads: a file (format sniffed from content) or the built-in demo.
struct ImageInput {
    /// How the input is named in output: the path, or "demo".
    let name: String
    /// The bytes, or nil for the demo.
    let data: Data?

    static let demo = ImageInput(name: "demo", data: nil)

    /// Reads a file, memory-mapped as `AnimatedImage(contentsOf:)` reads it; errors say
    /// which file and why.
    static func file(_ path: String) throws -> ImageInput {
        do {
            return ImageInput(name: path, data: try AnimatedImage.fileData(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ToolError("\(error)")
        }
    }

    /// Bytes already read (all of standard input), named `name`.
    static func bytes(_ data: Data, name: String) -> ImageInput {
        ImageInput(name: name, data: data)
    }

    /// The encoded size, or nil for the demo.
    var byteCount: Int? { data?.count }

    /// A decoding session through `registry`.
    func makeFrameSource(registry: CoderRegistry, options: DecodingOptions = .default) throws -> any FrameSource {
        guard let data else { return try DemoAnimation.makeFrameSource(options: options) }
        do {
            return try registry.makeFrameSource(data: data, options: options)
        } catch {
            throw ToolError("\(name): \(error)")
        }
    }
}

/// A failure to report as one line on standard error, exit status 1.
struct ToolError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
