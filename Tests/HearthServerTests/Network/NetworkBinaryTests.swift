import Foundation
import HearthProtocol
import HearthTesting
import Logging
import Testing

@testable import HearthServer

/// The binary form nodes write (version 2): every kind round-trips, and what is cut short,
/// garbled or of another version is refused as a typed error, never misread.
@Suite struct NetworkBinaryTests {
    static let samples = NetworkMessageTests.samples.map { NetworkEnvelope(from: "a", message: $0) }

    @Test func everyKindRoundTrips() throws {
        #expect(Set(Self.samples.map(\.message.kind)) == Set(NetworkBinary.codes.keys))
        for envelope in Self.samples {
            let bytes = try envelope.encoded()
            #expect(bytes.first == UInt8(NetworkEnvelope.version))
            #expect(try NetworkEnvelope.decode(bytes) == envelope, "\(envelope.message.kind)")
            // Compact: smaller than the JSON of version 1 it replaces.
            #expect(bytes.count < (try envelope.json()).utf8.count, "\(envelope.message.kind)")
        }
    }

    /// A node reads both forms: the JSON of nodes not yet upgraded, and the binary one.
    @Test func bothFormsAreRead() throws {
        for envelope in Self.samples {
            #expect(try NetworkEnvelope.decode(Array(try envelope.json().utf8)) == envelope)
            #expect(try NetworkEnvelope.decode(try envelope.encoded()) == envelope)
        }
    }

    /// Every event cut short anywhere is malformed (each field is read, none is guessed).
    @Test func everyTruncationIsRefused() throws {
        for envelope in Self.samples {
            let bytes = try envelope.encoded()
            for length in 0..<bytes.count {
                do {
                    let got = try NetworkEnvelope.decode(Array(bytes[..<length]))
                    Issue.record("\(envelope.message.kind) cut to \(length) read as \(got)")
                } catch {
                    guard case .malformed = error else {
                        Issue.record("\(envelope.message.kind) cut to \(length): \(error)")
                        continue
                    }
                }
            }
        }
    }

    /// A field added at the end of a kind by a newer node is skipped by this one.
    @Test func bytesAfterTheFieldsThisNodeKnowsAreSkipped() throws {
        for envelope in Self.samples {
            #expect(try NetworkEnvelope.decode(try envelope.encoded() + [1, 0x42, 0]) == envelope)
        }
    }

    @Test func garbageIsRefusedWithItsReason() throws {
        let quit = try NetworkEnvelope(from: "b", message: .quit(NetworkUser(node: "b", session: 3), reason: "bye"))
            .encoded()
        var badUTF8 = quit
        badUTF8[badUTF8.count - 2] = 0xFF
        var badSession = quit
        badSession.replaceSubrange(6...6, with: Array(repeating: 0xFF, count: 11))
        let cases: [([UInt8], NetworkDecodingError)] = [
            ([], .malformed("not an event")),
            ([3] + quit.dropFirst(), .unsupportedVersion(3)),
            ([31, 0, 0], .unsupportedVersion(31)),
            ([2, 200, 0], .unknownKind("code 200")),
            ([2, 0, 0], .unknownKind("code 0")),
            (badUTF8, .malformed("quit: not UTF-8")),
            (badSession, .malformed("quit: a number too long")),
            // A string longer than what is left, and a list longer than what is left.
            ([2, 5, 0xFF, 0xFF, 0x03], .malformed("quit: cut short")),
            ([2, 14, 1, 0x61, 1, 0x23, 0, 0, 0, 1, 0xFE, 0xFF, 0x03], .malformed("channel: a count past the end")),
            // A join's operator flag is 0 or 1.
            ([2, 7, 1, 0x62, 1, 0x62, 6, 2, 0x23, 0x74, 7, 0], .malformed("join: not a flag")),
            // Not a binary version, not JSON.
            (Array("hello".utf8), .malformed("not an event")),
            ([0, 1, 2], .malformed("not an event")),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected, "\(bytes)") { try NetworkEnvelope.decode(bytes) }
        }
    }

    /// Garbled bytes after a valid head never trap: each is read or refused.
    @Test func garbledBytesAreReadOrRefusedNeverTrap() {
        var state: UInt32 = 42
        for round in 0..<5_000 {
            let tail = (0..<(round % 40)).map { _ -> UInt8 in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
            _ = try? NetworkEnvelope.decode([2, UInt8(1 + round % 16)] + tail)
        }
    }

    /// A binary event cut short is refused by the node and logged without what it said.
    @Test(.timeLimit(.minutes(1))) func aRefusedBinaryEventIsLoggedWithoutWhatItSaid() async throws {
        let who = NetworkUser(node: "b", session: 3)
        let line = IRCMessage(source: "bob!b@h", command: "PRIVMSG", params: ["#t", "secret words"])
        let message = try NetworkEnvelope(from: "b", message: .message(who, target: "#t", line: line)).encoded()
        let quit = NetworkEnvelope(from: "b", message: .quit(who, reason: "bye"))
        let logs = LogCapture()
        let logger = Logger(label: "test") { _ in LogCapture.Handler(capture: logs) }
        let got = await NetworkNodeTests.receive(
            [Array(message.dropLast(3)), [9] + message.dropFirst(), try quit.encoded()], logger: logger)
        #expect(got == [.refused("malformed"), .refused("unsupported_version"), .applied(quit.message)])
        #expect(logs.text.contains("refused event 1 of b: malformed(\"message: cut short\")"), "\(logs.text)")
        #expect(!logs.text.contains("secret"), "\(logs.text)")
    }

    /// A network upgrading node by node: the log holds both forms, read in their order.
    @Test(.timeLimit(.minutes(1))) func aLogOfBothFormsIsReadInOrder() async throws {
        let who = NetworkUser(node: "b", session: 3)
        let events: [NetworkMessage] = [
            .join(who, channel: "#t", op: false, history: "#t 1"), .nick(who, nick: "bob2"), .quit(who, reason: "bye"),
        ]
        let old = try NetworkEnvelope(from: "b", message: events[0]).json()
        let new = try events.dropFirst().map { try NetworkEnvelope(from: "b", message: $0).encoded() }
        let got = await NetworkNodeTests.receive([Array(old.utf8)] + new, logger: Logger(label: "test"))
        #expect(got == events.map { NetworkNodeTests.Seen.applied($0) })
    }
}
