import Foundation
import Testing

/// The `encode` fuzz target's harness over its seeds and a few hundred seeded inputs, so
/// plain `swift test` checks every encoder's round trip the way the fuzzer does.
@Suite struct FuzzEncodeTests {
    @Test func seedsRoundTrip() throws {
        let seeds = try FuzzSeeds.all().filter { $0.family == "encode" }
        #expect(seeds.count == 3 * FuzzEncoding.Format.allCases.count)
        for seed in seeds {
            let outcome = FuzzTarget.encode.run(seed.data)
            #expect(outcome.isAcceptable && outcome.framesDecoded > 0, "\(seed.name): \(outcome)")
        }
    }

    /// Seeded inputs of every format: the first byte picks the format, the rest is a
    /// pseudo-random stream (`FuzzByteReader` continues it past the input's end).
    @Test(arguments: FuzzEncoding.Format.allCases.indices)
    func seededInputsRoundTrip(_ format: Int) {
        let rounds = FuzzEncoding.Format.allCases[format] == .avif ? 12 : 120
        for round in 0..<rounds {
            var state = UInt64(round) &* 0x9E37_79B9_7F4A_7C15 &+ 1
            let data = Data(
                [UInt8(format)]
                    + (0..<(8 + round % 40)).map { _ -> UInt8 in
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        return UInt8(truncatingIfNeeded: state >> 33)
                    })
            let outcome = FuzzTarget.encode.run(data)
            #expect(outcome.isAcceptable, "round \(round), input \(data.map { String($0) }.joined(separator: ",")): \(outcome)")
        }
    }
}
