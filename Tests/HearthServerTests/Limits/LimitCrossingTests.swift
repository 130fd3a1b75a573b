import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Every limit that had no test crossing it, crossed by exactly one over TCP (or HTTP) to a
/// real server: at the limit it is accepted; one past, the client gets a clear refusal (or the
/// documented cut), nothing else changes, and the connection lives on. Each test names the
/// constant it crosses, never a literal.
@Suite struct LimitCrossingTests {
    // MARK: Helpers

    /// Every line answering `command` on a plain connection, up to the answer to a `!whoami`
    /// sent right after it (lines are answered in order).
    static func replies(_ c: TestClient, _ command: String) async throws -> [String] {
        try await c.send(command)
        try await c.send("!whoami")
        var lines: [String] = []
        while true {
            let line = try await c.expect("the reply to \(command)") { _ in true }
            // The `!whoami` answer itself: a fortune saying may well contain "You are ".
            if line.contains("You are ") && (line.contains(", logged in as ") || line.contains(", not logged in (")) {
                return lines
            }
            lines.append(line)
        }
    }

    /// Every line answering `command` on an IRC connection, up to the PONG of a PING sent after it.
    static func ircReplies(_ c: TestClient, _ command: String) async throws -> [String] {
        let token = "mark\(UInt32.random(in: 0...UInt32.max))"
        try await c.send(command)
        try await c.send("PING \(token)")
        var lines: [String] = []
        while true {
            let line = try await c.expect("PONG \(token)") { _ in true }
            if line.contains(" PONG ") && line.hasSuffix(token) { return lines }
            lines.append(line)
        }
    }

    /// The last parameter of an IRC line (the text after " :", or the last word).
    static func lastParameter(_ line: String) -> String {
        if let range = line.range(of: " :", options: .backwards) { return String(line[range.upperBound...]) }
        return String(line.split(separator: " ").last ?? "")
    }

    static func count(_ lines: [String], containing text: String) -> Int {
        lines.filter { $0.contains(text) }.count
    }

    /// Crosses a page size by one. With `size` items (lines containing `item`) the list has
    /// no footer; after `addOne`, page 1 still shows `size` with a footer pointing at `next`,
    /// and `next` shows the one left (the line containing `last`, when given).
    static func crossPageSize(
        _ c: TestClient, _ command: String, next: String, item: String, size: Int, last: String? = nil,
        addOne: () async throws -> Void
    ) async throws {
        var page = try await replies(c, command)
        #expect(count(page, containing: item) == size && count(page, containing: "page 1 of") == 0, "\(command)")
        try await addOne()
        page = try await replies(c, command)
        #expect(count(page, containing: item) == size, "\(command)")
        #expect(count(page, containing: "page 1 of 2 — more: \(next)") == 1, "\(command)")
        page = try await replies(c, next)
        #expect(
            count(page, containing: item) == 1 && (last.map { count(page, containing: $0) == 1 } ?? true), "\(next)")
    }

    static func accountID(_ server: TestServer, _ name: String) async throws -> Int64 {
        try #require(try await server.server.store.account(nameKey: name)?.id)
    }

    /// Sends a SASL PLAIN payload in AUTHENTICATE chunks, as clients do.
    static func authenticate(_ c: TestClient, _ payload: String) async throws {
        try await c.send("AUTHENTICATE PLAIN")
        try await c.expect("AUTHENTICATE +")
        var rest = Substring(payload)
        while !rest.isEmpty {
            try await c.send("AUTHENTICATE \(rest.prefix(Core.saslChunk))")
            rest = rest.dropFirst(Core.saslChunk)
        }
        if payload.utf8.count % Core.saslChunk == 0 { try await c.send("AUTHENTICATE +") }
    }

    /// A connection that has sent CAP LS, NICK, USER and CAP REQ :sasl, waiting for AUTHENTICATE.
    static func saslClient(_ server: TestServer, _ nick: String) async throws -> TestClient {
        let c = try await server.connect()
        for line in ["CAP LS 302", "NICK \(nick)", "USER \(nick) 0 * :\(nick)", "CAP REQ :sasl"] {
            try await c.send(line)
        }
        try await c.expect("CAP * ACK :sasl")
        return c
    }
}
