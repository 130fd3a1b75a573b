import Foundation
import HearthProtocol
import HearthTesting
import Testing

/// Bad input gets a clear error or numeric, and the connection lives on.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let expected: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "over-long line", bytes: Array(("PRIVMSG #x :" + String(repeating: "a", count: 600) + "\r\n").utf8),
            expected: " 417 "),
        Case(
            name: "line past the framer limit",
            bytes: Array(String(repeating: "b", count: IRCLimits.maxLineBytes + 50).utf8) + [10], expected: " 417 "),
        Case(
            name: "tags past their limit",
            bytes: Array(("@" + String(repeating: "t", count: IRCLimits.maxTagBytes + 10) + " PING x\r\n").utf8),
            expected: " 417 "),
        Case(
            name: "invalid UTF-8", bytes: Array("PRIVMSG #x :".utf8) + [0xff, 0xfe, 0x41] + [13, 10],
            expected: "only accepts UTF-8"),
        Case(name: "NUL byte", bytes: Array("PRIVMSG #x :a".utf8) + [0] + Array("b\r\n".utf8), expected: "NUL byte"),
        Case(name: "unknown command", bytes: Array("FROBNICATE now\r\n".utf8), expected: " 421 "),
        Case(
            name: "binary garbage", bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 13, 10],
            expected: "NUL byte"),
        Case(name: "command with symbols", bytes: Array("PR!VMSG x\r\n".utf8), expected: " 421 "),
        Case(name: "no recipient", bytes: Array("PRIVMSG\r\n".utf8), expected: " 411 "),
        Case(name: "no text", bytes: Array("PRIVMSG someone\r\n".utf8), expected: " 412 "),
        Case(name: "too many targets", bytes: Array("PRIVMSG a,b,c,d,e :hi\r\n".utf8), expected: " 407 "),
        Case(name: "too many KICK targets", bytes: Array("KICK #x a,b,c,d,e\r\n".utf8), expected: " 407 "),
        Case(name: "no such nick", bytes: Array("PRIVMSG ghost :hi\r\n".utf8), expected: " 401 "),
        Case(name: "bad channel name", bytes: Array("JOIN lobby\r\n".utf8), expected: " 476 "),
        Case(
            name: "channel name too long",
            bytes: Array(("JOIN #" + String(repeating: "c", count: IRCLimits.channelLength) + "\r\n").utf8),
            expected: " 476 "),
        Case(
            name: "nick too long",
            bytes: Array(("NICK " + String(repeating: "n", count: IRCLimits.nickLength + 1) + "\r\n").utf8),
            expected: " 432 "),
        Case(name: "JOIN without channel", bytes: Array("JOIN\r\n".utf8), expected: " 461 "),
        Case(name: "USER after registration", bytes: Array("USER a 0 * :b\r\n".utf8), expected: " 462 "),
        Case(name: "bad CAP subcommand", bytes: Array("CAP FOO\r\n".utf8), expected: " 410 "),
        Case(name: "MODE on someone else", bytes: Array("MODE hearth +i\r\n".utf8), expected: " 401 "),
        Case(name: "unknown user mode", bytes: Array("MODE victor +Z\r\n".utf8), expected: " 501 "),
        Case(name: "PING without token", bytes: Array("PING\r\n".utf8), expected: " 409 "),
        Case(name: "KILL without being an operator", bytes: Array("KILL someone\r\n".utf8), expected: " 481 "),
        Case(name: "OPER without O-lines", bytes: Array("OPER a b\r\n".utf8), expected: " 491 "),
    ]

    @Test(arguments: cases)
    func badInputIsAnsweredAndTheConnectionLives(_ testCase: Case) async throws {
        try await withServer { server in
            let c = try await TestClient.irc(server, nick: "victor")
            try await c.sendRaw(testCase.bytes)
            try await c.expect(testCase.expected)
            try await c.sync()
            #expect(!c.isClosed)
        }
    }

    @Test func plainModeBadInput() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            try await nc.sendRaw(Array("caf".utf8) + [0xc3, 0x28] + [10])
            try await nc.expect("not valid UTF-8; nothing was sent")
            try await nc.sendRaw(Array("a".utf8) + [0] + [10])
            try await nc.expect("NUL byte")
            try await nc.send(String(repeating: "x", count: 2000))
            try await nc.expect("too long")
            try await nc.send(String(repeating: "y", count: IRCLimits.maxLineBytes + 1))
            try await nc.expect("too long")
            try await nc.send("!whoami")
            try await nc.expect("You are guest")
        }
    }

    @Test func floodedLinesAreDelayedNotDropped() async throws {
        try await withServer {
            $0.floodControl = true
        } run: { server in
            let c = try await TestClient.irc(server, nick: "wendy")
            // More than the burst: every line is still answered, in order.
            let count = 24
            var burst = ""
            for i in 0..<count { burst += "PING n\(i)\r\n" }
            try await c.sendRaw(Array(burst.utf8))
            for i in 0..<count { try await c.expect("PONG n\(i)") { $0.hasSuffix("PONG test.hearth :n\(i)") } }
        }
    }
}
