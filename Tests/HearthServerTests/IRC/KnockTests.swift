import Foundation
import HearthTesting
import Testing

/// KNOCK: asking an invite-only channel's operators for an invitation.
@Suite struct KnockTests {
    @Test func aKnockReachesTheOperatorsOnceAMinute() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "kop")
            try await op.send("JOIN #door")
            try await op.expectNumeric("366")
            let visitor = try await TestClient.irc(server, nick: "kim")
            try await visitor.send("KNOCK #door")
            try await visitor.expect(" 713 kim #door :Channel is open")
            try await op.send("MODE #door +i")
            try await op.expect("MODE #door :+i")
            try await visitor.send("KNOCK #door :let me in please")
            try await visitor.expect(" 711 kim #door :Your KNOCK has been delivered")
            let knock = try await op.expect(" 710 kop #door kim!~kim@")
            #expect(knock.hasSuffix(":has asked for an invite: let me in please"))
            // One knock per channel per knockInterval.
            try await visitor.send("KNOCK #door")
            try await visitor.expect(" 712 kim #door :Too many KNOCKs")
            try await visitor.send("KNOCK #nowhere")
            try await visitor.expect(" 403 kim #nowhere")
            try await op.send("KNOCK #door")
            try await op.expect(" 714 kop #door")
            try await visitor.send("KNOCK")
            try await visitor.expect(" 461 kim KNOCK")
            // Someone banned there does not reach the operators.
            let banned = try await TestClient.irc(server, nick: "kib")
            try await op.send("MODE #door +b kib!*@*")
            try await op.expect("+b") { $0.contains(" MODE #door ") && $0.contains("kib!*@*") }
            try await banned.send("KNOCK #door :please")
            try await banned.expect(" 474 kib #door :Cannot knock (+b)")
            try await op.send("PING :after")
            let next = try await op.expect("PONG") { $0.contains(" 710 ") || $0.contains("PONG") }
            #expect(next.contains("PONG"), "\(next)")
        }
    }
}
