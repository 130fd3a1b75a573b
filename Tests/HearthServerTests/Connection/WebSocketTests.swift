import Foundation
import HearthProtocol
import HearthTesting
import NIOWebSocket
import Testing

@testable import HearthServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// IRC over WebSocket (IRCv3 text.ircv3.net / binary.ircv3.net) on the HTTP port: a browser
/// client is an IRC client like any other.
@Suite struct WebSocketTests {
    /// NICK/USER over a WebSocket connection; waits for the end of the MOTD.
    static func register(_ web: TestClient, _ nick: String, extra: [String] = []) async throws {
        for line in extra + ["NICK \(nick)", "USER \(nick) 0 * :Web \(nick)"] { try await web.send(line) }
        try await web.expectNumeric("376")
    }

    @Test func aBrowserChatsWithAnIRCClient() async throws {
        try await withServer { server in
            let irc = try await TestClient.irc(server, nick: "nonweb")
            let (web, session) = try await TestClient.connectWebSocket(port: server.httpPort, path: "/irc")
            #expect(session.response.withLockedValue { $0.status }.contains(" 101 "))
            #expect(session.response.withLockedValue { $0.headers["sec-websocket-protocol"] } == "text.ircv3.net")
            try await Self.register(web, "web")
            try await web.send("PRIVMSG nonweb :hello from a browser")
            try await irc.expect(":web!~web@\(server.localHost) PRIVMSG nonweb :hello from a browser")
            try await irc.send("PRIVMSG web :hi, café")
            // One line per message, no CRLF inside, UTF-8 intact.
            try await web.expect(":nonweb!~nonweb@\(server.localHost) PRIVMSG web :hi, café")
            #expect(session.opcodes.withLockedValue { $0 }.allSatisfy { $0 == .text })
            try await web.send("JOIN #web")
            try await web.expect(" 366 web #web ")
            try await web.send("WHOIS web")
            try await web.expect(" 311 web web ~web \(server.localHost) * :Web web")
        }
    }

    @Test func subprotocolsAreNegotiatedInTheClientsOrder() async throws {
        try await withServer { server in
            let cases: [([String], String?, WebSocketOpcode)] = [
                (["binary.ircv3.net"], "binary.ircv3.net", .binary),
                (["text.ircv3.net"], "text.ircv3.net", .text),
                (["binary.ircv3.net", "text.ircv3.net"], "binary.ircv3.net", .binary),
                (["text.ircv3.net", "binary.ircv3.net"], "text.ircv3.net", .text),
                (["chat.example"], nil, .text),
                ([], nil, .text),
            ]
            for (index, (offered, chosen, opcode)) in cases.enumerated() {
                let (web, session) = try await TestClient.connectWebSocket(port: server.httpPort, subprotocols: offered)
                #expect(session.response.withLockedValue { $0.headers["sec-websocket-protocol"] } == chosen)
                try await Self.register(web, "web\(index)")
                #expect(session.opcodes.withLockedValue { $0 }.allSatisfy { $0 == opcode }, "\(offered)")
                await web.close()
            }
        }
    }

    @Test func saslAndCapsWorkAsOverTCP() async throws {
        try await withServer { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let (web, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await web.send("CAP LS 302")
            try await web.expect("CAP * LS")
            try await web.send("CAP REQ :sasl server-time message-tags")
            try await web.expect("CAP * ACK")
            try await web.send("AUTHENTICATE PLAIN")
            try await web.expect("AUTHENTICATE +")
            try await web.send("AUTHENTICATE " + IRCProtocolTests.plainAuth("ann", "s3cret-pass"))
            try await web.expectNumeric("903")
            try await web.send("CAP END")
            try await Self.register(web, "ann")
            try await web.send("PRIVMSG hearth :!whoami")
            try await web.expect("ann")
        }
    }

    @Test func messagesPastTheLimitCloseTheConnection() async throws {
        try await withServer { server in
            // At the limit: one IRC line too long for IRC, answered like over TCP (417).
            let (atLimit, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await Self.register(atLimit, "edge")
            let body = String(repeating: "x", count: WebSocketIRC.maxMessageBytes - "PRIVMSG edge :".utf8.count - 2)
            try await atLimit.send("PRIVMSG edge :" + body)
            try await atLimit.expectNumeric("417")
            try await atLimit.sync()
            // One byte past: the WebSocket is closed with 1009 (message too big).
            let (past, session) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await Self.register(past, "past")
            try await past.sendRaw(Array(repeating: UInt8(ascii: "x"), count: WebSocketIRC.maxMessageBytes + 1))
            try await past.expectClosed()
            #expect(past.isClosed)
            #expect(session.closeCodes.withLockedValue { $0 } == [1009])
        }
    }

    @Test func otherPathsAndPlainHTTPStayHTTP() async throws {
        try await withServer {
            $0.plainGreetingDelay = 0.2
        } run: { server in
            let (refused, session) = try await TestClient.connectWebSocket(port: server.httpPort, path: "/elsewhere")
            #expect(session.response.withLockedValue { $0.status }.contains(" 404 "))
            await refused.close()
            let (data, response) = try await URLSession.shared.data(
                from: URL(string: "http://127.0.0.1:\(server.httpPort)/health")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"status\":\"ok\""))
            // A WebSocket client that says nothing is not greeted as a plain-mode user: a plain
            // client that connects after it and says nothing is greeted, and by then it is not.
            let (silent, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            let plain = try await server.connect()
            try await plain.expect("Welcome to")
            #expect(silent.unread().isEmpty, "\(silent.unread())")
        }
    }

    @Test func fragmentsMakeOneLineUpToTheirLimit() async throws {
        try await withServer { server in
            let irc = try await TestClient.irc(server, nick: "nonweb")
            let (web, session) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await Self.register(web, "web")
            // One message in three fragments is one line; a ping in between is answered.
            try await web.sendFrames([
                (.text, false, "PRIVMSG non"), (.continuation, false, "web :in "),
                (.continuation, true, "pieces"),
            ])
            try await irc.expect("PRIVMSG nonweb :in pieces")
            // More fragments than allowed: closed with 1009.
            let pieces = (0...WebSocketIRC.maxFragments).map { index in
                (
                    opcode: index == 0 ? WebSocketOpcode.text : .continuation, fin: index == WebSocketIRC.maxFragments,
                    text: "x"
                )
            }
            try await web.sendFrames(pieces)
            try await web.expectClosed()
            #expect(web.isClosed)
            #expect(session.closeCodes.withLockedValue { $0 } == [1009])
            try await irc.sync()
        }
    }

    /// Lines are framed as they are written: a channel line to members on text and binary
    /// connections, past the 7-bit frame length; a relayed message; each arrives whole, once.
    @Test func channelAndRelayedLinesArriveAsOneFrameEach() async throws {
        try await withServer { server in
            let irc = try await TestClient.irc(server, nick: "nonweb")
            let (text, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            let (binary, session) = try await TestClient.connectWebSocket(
                port: server.httpPort, subprotocols: ["binary.ircv3.net"])
            try await Self.register(text, "webtext")
            try await Self.register(binary, "webbin")
            for client in [irc, text, binary] {
                try await client.send("JOIN #den")
                try await client.expect(" 366 ")
            }
            let long = String(repeating: "z", count: WebSocketFraming.maxTinyLength + 10)
            try await irc.send("PRIVMSG #den :\(long)")
            try await text.expect(":nonweb!~nonweb@\(server.localHost) PRIVMSG #den :\(long)")
            try await binary.expect(":nonweb!~nonweb@\(server.localHost) PRIVMSG #den :\(long)")
            try await irc.send("PRIVMSG webbin :just you")
            try await binary.expect(":nonweb!~nonweb@\(server.localHost) PRIVMSG webbin :just you")
            try await text.send("PRIVMSG webbin :from text")
            try await binary.expect(":webtext!~webtext@\(server.localHost) PRIVMSG webbin :from text")
            #expect(session.opcodes.withLockedValue { $0 }.allSatisfy { $0 == .binary })
            try await binary.sync()
            #expect(binary.unread().isEmpty, "\(binary.unread())")
        }
    }

    /// A connection refused before it is a client (too many from one address) gets its ERROR
    /// as a frame, as every later line would be.
    @Test func aRefusedConnectionIsToldInAFrame() async throws {
        try await withServer {
            $0.floodControl = true  // loopback is exempt otherwise
            $0.maxConnectionsPerAddress = 1
        } run: { server in
            let (first, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await Self.register(first, "first")
            let (second, _) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await second.expect("ERROR :Closing Link: 127.0.0.1 (Too many connections from your address")
            try await second.expectClosed()
        }
    }

    /// A ping is answered with its payload between the connection's frames, and a close is
    /// answered with 1000 (normal closure) and the connection closed.
    @Test func pingsAreAnsweredAndACloseIsReturned() async throws {
        try await withServer { server in
            let (web, session) = try await TestClient.connectWebSocket(port: server.httpPort)
            try await Self.register(web, "pinger")
            try await web.sendFrames([(.ping, true, "are you there")])
            try await web.send("PING :after")
            try await web.expect("PONG")
            #expect(session.pongs.withLockedValue { $0 } == ["are you there"])
            try await web.sendFrames([(.connectionClose, true, "")])
            try await web.expectClosed()
            #expect(session.closeCodes.withLockedValue { $0 } == [1000])
        }
    }
}
