import Foundation
import HearthTesting
import Testing

/// Channel operators and modes: +o +v +t +n +i +k +l +m +b, KICK and INVITE.
@Suite struct ChannelModeTests {
    @Test func firstJoinerIsOperatorAndModesAreEnforced() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "pat")
            let user = try await TestClient.irc(server, nick: "quinn")
            try await op.send("JOIN #club")
            try await op.expect(" 353 pat = #club :@pat")

            try await user.send("JOIN #club")
            try await user.expectNumeric("366")
            // Not an operator: 482 and nothing changes.
            try await user.send("MODE #club +i")
            try await user.expect(" 482 quinn #club :You're not channel operator")
            try await user.send("TOPIC #club :mine now")
            try await user.expect(" 482 quinn #club")
            try await user.send("KICK #club pat")
            try await user.expect(" 482 quinn #club")
            try await op.send("MODE #club")
            try await op.expect(" 324 pat #club :+nt")

            // +v, +m: only voiced users speak.
            try await op.send("MODE #club +m")
            try await user.expect(":pat!~pat@\(server.localHost) MODE #club :+m")
            try await user.send("PRIVMSG #club :can I talk?")
            try await user.expect(" 404 quinn #club :Cannot send to channel (+m)")
            try await op.send("MODE #club +v quinn")
            try await user.expect("MODE #club +v :quinn")
            try await user.send("PRIVMSG #club :now I can")
            try await op.expect("PRIVMSG #club :now I can")
            try await op.send("NAMES #club")
            try await op.expect(" 353 pat = #club :@pat +quinn")

            // +o hands over operator status.
            try await op.send("MODE #club +o quinn")
            try await user.expect("MODE #club +o :quinn")
            try await user.send("TOPIC #club :Quinn's club")
            try await op.expect("TOPIC #club :Quinn's club")

            // Unknown mode letters and missing users.
            try await op.send("MODE #club +z")
            try await op.expect(" 472 pat z :is an unknown mode char to me for #club")
            try await op.send("MODE #club +o nobody")
            try await op.expect(" 401 pat nobody :No such nick/channel")
            let stranger = try await TestClient.irc(server, nick: "stranger")
            try await op.send("MODE #club +o stranger")
            try await op.expect(" 441 pat stranger #club :They aren't on that channel")
            await stranger.close()

            // +k and +l
            try await op.send("MODE #club +kl secretkey 2")
            try await op.expect("MODE #club +kl secretkey :2")
            let third = try await TestClient.irc(server, nick: "ray")
            try await third.send("JOIN #club")
            try await third.expect(" 475 ray #club")
            try await third.send("JOIN #club secretkey")
            try await third.expect(" 471 ray #club")
            try await op.send("MODE #club -l")
            try await op.expect("MODE #club :-l")
            try await third.send("JOIN #club wrongkey")
            try await third.expect(" 475 ray #club")
            try await third.send("JOIN #club secretkey")
            try await third.expect(":ray!~ray@\(server.localHost) JOIN #club")

            // KICK
            try await op.send("KICK #club ray :too noisy")
            try await third.expect("KICK #club ray :too noisy")
            try await op.send("KICK #club ray")
            try await op.expectNumeric("441")

            // +i and INVITE
            try await op.send("MODE #club +i")
            try await op.expect("MODE #club :+i")
            try await third.send("JOIN #club secretkey")
            try await third.expect(" 473 ray #club")
            try await op.send("INVITE ray #club")
            try await op.expect(" 341 pat ray :#club")
            try await third.expect(":pat!~pat@\(server.localHost) INVITE ray :#club")
            try await third.send("JOIN #club secretkey")
            try await third.expect(":ray!~ray@\(server.localHost) JOIN #club")
            try await op.send("INVITE ray #club")
            try await op.expectNumeric("443")

            // +b
            try await op.send("KICK #club ray")
            try await op.send("MODE #club -ik secretkey")
            try await op.send("MODE #club +b ray")
            try await op.expect("MODE #club +b :ray!*@*")
            try await op.send("MODE #club b")
            try await op.expect(" 367 pat #club ray!*@* pat")
            try await op.expectNumeric("368")
            try await third.send("JOIN #club")
            try await third.expect(" 474 ray #club")
            try await op.send("MODE #club -b ray!*@*")
            try await op.expect("MODE #club -b :ray!*@*")
            try await third.send("JOIN #club")
            try await third.expect(":ray!~ray@\(server.localHost) JOIN #club")

            // +n: outsiders cannot send. PART and errors for channels you are not on.
            let outsider = try await TestClient.irc(server, nick: "sam")
            try await outsider.send("PRIVMSG #club :hello?")
            try await outsider.expect(" 404 sam #club")
            try await outsider.send("PART #club")
            try await outsider.expect(" 442 sam #club")
            try await outsider.send("PART #nowhere")
            try await outsider.expect(" 403 sam #nowhere")
            try await third.send("PART #club :bye all")
            try await op.expect(":ray!~ray@\(server.localHost) PART #club :bye all")
        }
    }

    /// A non-operator's MODE is refused once (482): the parameters its refused changes lack are
    /// not reported too.
    @Test func aNonOperatorIsRefusedOnceNotToldWhatItsModesLack() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "pat")
            let user = try await TestClient.irc(server, nick: "quinn")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await user.send("JOIN #club")
            try await user.expectNumeric("366")
            try await user.send("MODE #club +kv key")
            try await user.expect(" 482 quinn #club :You're not channel operator")
            try await user.send("PING after")
            try await user.expectNoLine(containing: " 461 ", before: "PONG")
            try await op.send("MODE #club")
            try await op.expect(" 324 pat #club :+nt")
        }
    }

    @Test func nickChangesReachChannelPeers() async throws {
        try await withServer { server in
            let a = try await TestClient.irc(server, nick: "tom")
            let b = try await TestClient.irc(server, nick: "uma")
            try await a.send("JOIN #x")
            try await b.send("JOIN #x")
            try await b.expectNumeric("366")
            try await a.send("NICK tommy")
            try await a.expect(":tom!~tom@\(server.localHost) NICK tommy")
            try await b.expect(":tom!~tom@\(server.localHost) NICK tommy")
            try await b.send("NICK tommy")
            try await b.expect(" 433 uma tommy")
            try await b.send("NICK 1bad")
            try await b.expect(" 432 uma 1bad")
            try await a.send("JOIN #a,#b,#c")
            try await a.expect("JOIN #c")
            try await a.send("JOIN 0")
            try await b.expect(":tommy!~tom@\(server.localHost) PART #x")
            // The one who leaves sees its own PART too.
            try await a.expect(":tommy!~tom@\(server.localHost) PART #x")
        }
    }
}
