import Foundation
import HearthProtocol
import HearthTesting
import Testing

/// Ban exceptions (+e), invite exceptions (+I) and extbans: `a:ACCOUNT` and the mute `m:MASK`.
@Suite struct ChannelListTests {
    /// A client logged in to a fresh account `name`.
    static func account(_ server: TestServer, _ name: String) async throws -> TestClient {
        let client = try await TestClient.irc(server, nick: name)
        try await client.send("PRIVMSG hearth :!register \(name) s3cret-pass")
        try await client.expect("Welcome to Hearth, \(name)!")
        return client
    }

    @Test func exceptionsLetThroughWhomABanWouldKeepOut() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +b *!*@*")
            try await op.expect("MODE #club +b :*!*@*")
            try await op.send("MODE #club +e amy")
            try await op.expect("MODE #club +e :amy!*@*")
            // Listed with 348/349, by anyone.
            let amy = try await TestClient.irc(server, nick: "amy")
            try await amy.send("MODE #club e")
            try await amy.expect(" 348 amy #club amy!*@* op!~op@\(server.localHost) ")
            try await amy.expect(" 349 amy #club :End of channel exception list")
            try await amy.send("JOIN #club")
            try await amy.expect("JOIN #club")
            let ben = try await TestClient.irc(server, nick: "ben")
            try await ben.send("JOIN #club")
            try await ben.expect(" 474 ben #club ")
            // Only operators change the lists.
            try await amy.send("MODE #club +e ben")
            try await amy.expectNumeric("482")
            try await op.send("MODE #club -e amy!*@*")
            try await op.expect("MODE #club -e :amy!*@*")
            try await op.send("MODE #club e")
            let end = try await op.expect("exception list") { $0.contains(" 348 ") || $0.contains(" 349 ") }
            #expect(end.contains(" 349 "))
        }
    }

    @Test func inviteExceptionsOpenAnInviteOnlyChannel() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +i")
            try await op.expect("MODE #club :+i")
            try await op.send("MODE #club +I cara!*@*")
            try await op.expect("MODE #club +I :cara!*@*")
            try await op.send("MODE #club I")
            try await op.expect(" 346 op #club cara!*@* ")
            try await op.expect(" 347 op #club :End of channel invite list")
            let cara = try await TestClient.irc(server, nick: "cara")
            try await cara.send("JOIN #club")
            try await cara.expect("JOIN #club")
            let dan = try await TestClient.irc(server, nick: "dan")
            try await dan.send("JOIN #club")
            try await dan.expect(" 473 dan #club ")
        }
    }

    @Test func accountBansMatchAccountsNotNicks() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +b a:eve")
            try await op.expect("MODE #club +b :a:eve")
            // A guest who only calls herself eve may join; the account eve may not.
            let guest = try await TestClient.irc(server, nick: "eve")
            try await guest.send("JOIN #club")
            try await guest.expect("JOIN #club")
            await guest.close()
            let eve = try await Self.account(server, "evelyn")
            try await op.send("MODE #club +b $a:EVE*")
            try await op.expect("MODE #club +b :$a:EVE*")
            try await eve.send("JOIN #club")
            try await eve.expect(" 474 evelyn #club ")
            // An account exception beats a hostmask ban.
            try await op.send("MODE #club -b $a:EVE*")
            try await op.send("MODE #club +b *!*@*")
            try await op.send("MODE #club +e a:evelyn")
            try await op.expect("MODE #club +e :a:evelyn")
            try await eve.send("JOIN #club")
            try await eve.expect("JOIN #club")
        }
    }

    /// A bare `$a` is anyone logged in, in each list: it was completed to the hostmask `$a!*@*`,
    /// which matches nobody.
    @Test func aBareDollarAIsAnyoneLoggedIn() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            let amy = try await Self.account(server, "amy")
            let gus = try await TestClient.irc(server, nick: "gus")

            // +I $a: an account passes +i, a guest does not.
            try await op.send("MODE #club +i")
            try await op.expect("MODE #club :+i")
            try await op.send("MODE #club +I $a")
            try await op.expect("the +I") { $0.hasSuffix(" MODE #club +I :$a") }
            try await gus.send("JOIN #club")
            try await gus.expect(" 473 gus #club ")
            try await amy.send("JOIN #club")
            try await amy.expectNumeric("366")
            try await amy.send("PART #club")
            try await amy.expect(" PART ")

            // +b $a: accounts are kept out, guests are not.
            try await op.send("MODE #club -iI+b $a $a")
            try await op.expect("the +b") { $0.hasSuffix(" MODE #club -iI+b $a :$a") }
            try await amy.send("JOIN #club")
            try await amy.expect(" 474 amy #club ")
            try await gus.send("JOIN #club")
            try await gus.expectNumeric("366")
            try await gus.send("PART #club")
            try await gus.expect(" PART ")

            // +e $a: past a ban of everyone, accounts only.
            try await op.send("MODE #club -b+be $a *!*@* $a")
            try await op.expect("the +e") { $0.hasSuffix(" MODE #club -b+be $a *!*@* :$a") }
            try await gus.send("JOIN #club")
            try await gus.expect(" 474 gus #club ")
            try await amy.send("JOIN #club")
            try await amy.expectNumeric("366")
        }
    }

    @Test func aMuteKeepsSomeoneInButQuiet() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            try await op.send("MODE #club +b m:fred")
            try await op.expect("MODE #club +b :m:fred!*@*")
            let fred = try await TestClient.irc(server, nick: "fred")
            try await fred.send("JOIN #club")
            try await fred.expect("JOIN #club")
            try await fred.send("PRIVMSG #club :can anyone hear me?")
            try await fred.expect(" 404 fred #club :Cannot send to channel — you are muted")
            try await op.sync()
            #expect(!op.unread().contains { $0.contains("can anyone hear me") })
            // Voice lifts it; so does removing the mute.
            try await op.send("MODE #club -b m:fred!*@*")
            try await op.expect("MODE #club -b :m:fred!*@*")
            try await fred.send("PRIVMSG #club :now?")
            try await op.expect("PRIVMSG #club :now?")
        }
    }

    @Test func eachListHasItsOwnLimit() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #club")
            try await op.expectNumeric("366")
            for index in 0..<IRCLimits.bansPerChannel {
                try await op.send("MODE #club +e x\(index)!*@*")
            }
            try await op.sync()
            try await op.send("MODE #club +e one-too-many!*@*")
            try await op.expect(
                " 478 op #club e :Channel exception list is full (the limit is \(IRCLimits.bansPerChannel))")
            // The ban list is separate and still empty.
            try await op.send("MODE #club +b someone")
            try await op.expect("MODE #club +b :someone!*@*")
        }
    }
}
