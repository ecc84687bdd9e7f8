import Foundation
import Testing

@testable import ZoetropeLoading

/// The transport's head parser on the lines a server sends: no socket, exact results.
@Suite struct ResponseHeadTests {
    /// Feeds `text`'s lines (each with its line ending) and returns the parser and the last step.
    static func parse(_ text: String) -> (ResponseHead, ResponseHead.Step) {
        var head = ResponseHead()
        var step = ResponseHead.Step.more
        var rest = Array(text.utf8)[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: 0x0A).map { $0 + 1 } ?? rest.endIndex
            step = head.take(rest[..<end])
            rest = rest[end...]
            if case .invalid = step { break }
        }
        return (head, step)
    }

    @Test func aHeadGivesItsStatusVersionAndFields() {
        let (head, step) = Self.parse("HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\nETag:  \"a\" \r\n\r\n")
        #expect(step == .complete)
        #expect(head.status == 404)
        #expect(head.version == "HTTP/1.1")
        #expect(head.fields == ["Content-Length": "12", "Etag": "\"a\""])
    }

    @Test func http2StatusLinesAndLowerCaseNamesRead() {
        let (head, step) = Self.parse("HTTP/2 200 \r\ncache-control: max-age=60\r\nx-cache-status: HIT\r\n\r\n")
        #expect(step == .complete)
        #expect(head.status == 200)
        #expect(head.version == "HTTP/2")
        #expect(head.fields == ["Cache-Control": "max-age=60", "X-Cache-Status": "HIT"])
    }

    @Test func repeatedFieldsJoinAndFoldedLinesContinue() {
        let (head, _) = Self.parse("HTTP/1.1 200 OK\r\nCache-Control: public\r\ncache-control: max-age=5\r\nX-A: one\r\n\ttwo\r\n\r\n")
        #expect(head.fields == ["Cache-Control": "public, max-age=5", "X-A": "one two"])
    }

    @Test func interimHeadsAreSkipped() {
        let (head, step) = Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: <a>\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\n")
        #expect(step == .complete)
        #expect(head.status == 200)
        #expect(head.fields == ["A": "b"])
    }

    @Test func linesThatAreNotFieldsAreIgnored() {
        let (head, step) = Self.parse("HTTP/1.1 200 OK\r\nno colon here\r\n: empty name\r\nbad name: x\r\nGood: y\r\n\r\n")
        #expect(step == .complete)
        #expect(head.fields == ["Good": "y"])
    }

    @Test func bytesOutsideASCIIAreKeptOneToOne() {
        var head = ResponseHead()
        _ = head.take(Array("HTTP/1.1 200 OK\r\n".utf8))
        _ = head.take([0x58, 0x3A, 0x20, 0xFF, 0xC3, 0x28, 0x0D, 0x0A])
        #expect(head.take(Array("\r\n".utf8)) == .complete)
        #expect(head.fields["X"]?.unicodeScalars.map(\.value) == [0xFF, 0xC3, 0x28])
    }

    @Test(arguments: [
        ("SSH-2.0-OpenSSH\r\n", "the response does not start with an HTTP status line"),
        ("HTTP/1.1 20 OK\r\n", "the response's status line has no three-digit status"),
        ("HTTP/1.1 2000 OK\r\n", "the response's status line has no three-digit status"),
        ("HTTP/1.1 099 OK\r\n", "the response's status line has no three-digit status"),
        ("HTTP/1.1\r\n", "the response does not start with an HTTP status line"),
        ("HTTP/1.1 200 OK\r\n folded first\r\n", "the response head starts with a folded line"),
    ])
    func aHeadThatIsNotHTTPIsInvalid(text: String, reason: String) {
        #expect(Self.parse(text).1 == .invalid(reason))
    }

    @Test func aHeadIsBoundedInBytesAndFields() {
        var head = ResponseHead()
        _ = head.take(Array("HTTP/1.1 200 OK\r\n".utf8))
        var step = ResponseHead.Step.more
        var lines = 0
        while step == .more, lines < 10_000 {
            step = head.take(Array("X-\(lines): \(String(repeating: "v", count: 400))\r\n".utf8))
            lines += 1
        }
        #expect(step == .invalid("the response head is over 256 KiB"))
        #expect(lines < 700)
        var many = ResponseHead()
        _ = many.take(Array("HTTP/1.1 200 OK\r\n".utf8))
        step = .more
        lines = 0
        while step == .more, lines < 10_000 {
            step = many.take(Array("X: 1\r\n".utf8))
            lines += 1
        }
        #expect(step == .invalid("the response head has over 1000 fields"))
        #expect(lines == 1001)
    }

    @Test func linesAfterTheHeadChangeNothing() {
        var (head, _) = Self.parse("HTTP/1.1 200 OK\r\nA: b\r\n\r\n")
        #expect(head.take(Array("Trailer: x\r\n".utf8)) == .complete)
        #expect(head.fields == ["A": "b"])
    }
}
