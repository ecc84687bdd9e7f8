// An animation re-timed on one fixed interval (for APIs that take an array of
// images and one duration), loaded by name from a bundle, from data and from a URL.
// Usage: FixedIntervalPlayer FILE   (the file's folder serves as the bundle)
import Foundation
import ZoetropeCodecs

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: FixedIntervalPlayer FILE\n".utf8))
    exit(2)
}
CoderRegistry.shared.registerBuiltInCoders()
let url = URL(fileURLWithPath: CommandLine.arguments[1])

func report(_ how: String, _ image: AnimatedImage) {
    // As ImageIO-based players do: under 11 ms plays as 100 ms.
    let timeline = image.info.uniformTimeline(delayPolicy: .imageIO)
    print("\(how): \(image.info.frameCount) frames, interval \(timeline.interval), frames \(timeline.frames), one play \(timeline.duration)\(timeline.isExact ? "" : " (sampled)")")
}

// By name, trying each registered format's extensions (as `gifWithName`-style APIs do).
guard let bundle = Bundle(path: url.deletingLastPathComponent().path) else {
    FileHandle.standardError.write(Data("no bundle at \(url.deletingLastPathComponent().path)\n".utf8))
    exit(1)
}
report("name", try AnimatedImage(named: url.deletingPathExtension().lastPathComponent, in: bundle))
// From bytes the app already has.
report("data", try AnimatedImage(data: Data(contentsOf: url)))
// From a URL, asynchronously (a file here; http(s) goes through AnimatedImageLoader).
report("url", try await AnimatedImage.load(from: url))

do {
    _ = try AnimatedImage(named: "no-such-image", in: bundle)
} catch {
    print("missing: \(error.localizedDescription)")
}
