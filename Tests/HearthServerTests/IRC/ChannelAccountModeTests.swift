import Foundation
import HearthTesting
import Testing

/// Channel modes for public channels: +C (no CTCP but ACTION), +R (only accounts join),
/// +M (only accounts speak). Over TCP, on either engine (accounts are in the store).
@Suite struct ChannelAccountModeTests {
    @Test func noCTCPLetsOnlyActionThrough() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "cop")
            let user = try await TestClient.irc(server, nick: "cuser")
            try await op.send("JOIN #quiet")
            try await op.expectNumeric("366")
            try await user.send("JOIN #quiet")
            try await user.expectNumeric("366")
            try await op.send("MODE #quiet +C")
            try await user.expect("MODE #quiet :+C")
            try await user.send("PRIVMSG #quiet :\u{1}ACTION waves\u{1}")
            try await op.expect("PRIVMSG #quiet :\u{1}ACTION waves\u{1}")
            try await user.send("PRIVMSG #quiet :\u{1}PING 12345\u{1}")
            try await user.expect(" 404 cuser #quiet :Cannot send to channel (+C)")
            try await user.send("PRIVMSG #quiet :after")
            try await op.expectNoLine(containing: "PING 12345", before: "PRIVMSG #quiet :after")
            try await op.send("MODE #quiet")
            try await op.expect(" 324 cop #quiet :+Cnt")
        }
    }

    @Test func accountsOnlyKeepsGuestsOutUnlessInvited() async throws {
        try await withServer { server in
            try await TestClient.register(server, "rita", "s3cret-pass")
            let op = try await TestClient.irc(server, nick: "rop")
            try await op.send("JOIN #members")
            try await op.expectNumeric("366")
            try await op.send("MODE #members +R")
            try await op.expect("MODE #members :+R")
            let guest = try await TestClient.irc(server, nick: "rguest")
            try await guest.send("JOIN #members")
            try await guest.expect(" 477 rguest #members :Cannot join channel (+R)")
            let rita = try await TestClient.irc(server, nick: "rita", extra: ["PASS rita:s3cret-pass"])
            try await rita.send("JOIN #members")
            try await rita.expect(" 366 rita #members")
            // An invitation lets a guest in, as with +i.
            try await op.send("INVITE rguest #members")
            try await guest.expect("INVITE rguest :#members")
            try await guest.send("JOIN #members")
            try await guest.expect(" 366 rguest #members")
        }
    }

    @Test func accountsSpeakSilencesGuestsButNotVoicedOnes() async throws {
        try await withServer { server in
            try await TestClient.register(server, "mona", "s3cret-pass")
            let op = try await TestClient.irc(server, nick: "mop")
            try await op.send("JOIN #talk")
            try await op.expectNumeric("366")
            let guest = try await TestClient.irc(server, nick: "mguest")
            let mona = try await TestClient.irc(server, nick: "mona", extra: ["PASS mona:s3cret-pass"])
            for member in [guest, mona] {
                try await member.send("JOIN #talk")
                try await member.expectNumeric("366")
            }
            try await op.send("MODE #talk +M")
            try await guest.expect("MODE #talk :+M")
            try await guest.send("PRIVMSG #talk :may I?")
            try await guest.expect(" 404 mguest #talk :Cannot send to channel (+M)")
            try await mona.send("PRIVMSG #talk :I may")
            try await op.expectNoLine(containing: "may I?", before: "PRIVMSG #talk :I may")
            try await op.send("MODE #talk +v mguest")
            try await guest.expect("MODE #talk +v :mguest")
            try await guest.send("PRIVMSG #talk :voiced now")
            try await op.expect("PRIVMSG #talk :voiced now")
        }
    }
}
