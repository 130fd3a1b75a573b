import Foundation
import HearthTesting
import Testing

/// Issue 33: a connection that stops being an account leaves every channel only that account
/// let it into — a family's channel, a channel whose modes admit the account — with a PART
/// the others see, and reads and writes there no more: after `!logout`, after a logout from
/// another device (`!passwd`, `!recover`) and after `!account delete`.
@Suite struct LogoutLeavesChannelsTests {
    /// gran (nc, plain mode) founds a family; ann (an IRC client) joins it. Both are in #family-1.
    static func family(_ server: TestServer) async throws -> (gran: TestClient, ann: TestClient, codes: [String]) {
        let gran = try await TestClient.plain(server)
        try await gran.send("!register gran s3cret-pass")
        let codes = SecretsTests.codes(
            in: try await gran.expect("the recovery codes", timeout: 30) { SecretsTests.codes(in: $0).count == 8 })
        try await gran.send("!tree new Grans")
        let code = try FamilyTests.code(in: try await gran.expect("Invite code for Grans: "))
        try await gran.expect("You joined #family-1.")
        let ann = try await ChannelListTests.account(server, "ann")
        try await ann.send("PRIVMSG hearth :!tree join \(code)")
        try await ann.expect("Welcome to Grans")
        try await ann.expectNumeric("366")
        try await gran.expect("[#family-1] * ann joined")
        return (gran, ann, codes)
    }

    /// ann sees gran leave #family-1 (as a PART with a reason).
    static func expectGranLeft(_ ann: TestClient) async throws {
        let part = try await ann.expect("gran's PART") { $0.hasPrefix(":gran!") && $0.contains(" PART #family-1") }
        #expect(part.hasSuffix(" PART #family-1 :Logged out"), "\(part)")
    }

    /// `who` (plain) gets no more family lines and can't speak in #family-1 or join it again.
    static func expectShutOut(_ who: TestClient, ann: TestClient) async throws {
        try await ann.send("PRIVMSG #family-1 :secret plans")
        try await who.send("/msg #family-1 still here?")
        try await who.send("/join #family-1")
        try await who.expectNoLine(containing: "secret plans", before: "it is a family's private channel")
        try await ann.send("NAMES #family-1")
        let names = try await ann.expectNumeric("353")
        #expect(!names.contains("guest") && !names.contains("still here"), "\(names)")
        try await ann.expectNoLine(containing: "still here?", before: " 366 ")
    }

    @Test func logoutLeavesTheFamilyChannel() async throws {
        try await withServer { server in
            let (gran, ann, _) = try await Self.family(server)
            try await gran.send("!logout")
            try await gran.expect("You left #family-1.")
            try await gran.expect("You are logged out")
            try await Self.expectGranLeft(ann)
            try await Self.expectShutOut(gran, ann: ann)
        }
    }

    @Test func loggingInAsAnotherAccountLeavesTheFamilyChannel() async throws {
        try await withServer { server in
            let (gran, ann, _) = try await Self.family(server)
            try await TestClient.register(server, "bob", "s3cret-pass")
            try await gran.send("!login bob s3cret-pass")
            try await gran.expect("You left #family-1.")
            try await gran.expect("You are logged in as bob.")
            try await Self.expectGranLeft(ann)
            try await Self.expectShutOut(gran, ann: ann)
        }
    }

    /// The lost phone is another device of gran's: `!passwd` on the laptop takes it out of the
    /// family channel (the others still see gran, on the laptop); `!recover` from a new
    /// connection takes the last device out, and the others see it go.
    @Test func aLogoutFromElsewhereLeavesTheFamilyChannel() async throws {
        try await withServer { server in
            let (laptop, ann, codes) = try await Self.family(server)
            let phone = try await TestClient.plain(server)
            try await phone.send("!login gran s3cret-pass")
            try await phone.expect("You joined #family-1.")
            try await laptop.send("!passwd s3cret-pass n3w-s3cret-pass")
            try await phone.expect("You were logged out from another connection.")
            try await Self.expectShutOut(phone, ann: ann)
            try await ann.send("PRIVMSG #family-1 :laptop still reads")
            try await laptop.expect("[#family-1] <ann> laptop still reads")

            // A recovery code, used on a new connection, logs the laptop (gran's last one) out.
            let stranger = try await TestClient.plain(server)
            try await stranger.send("!recover gran \(codes[0]) th1rd-s3cret-pass")
            try await laptop.expect("You were logged out from another connection.")
            try await Self.expectGranLeft(ann)
        }
    }

    @Test func accountDeletionLeavesTheFamilyChannel() async throws {
        try await withServer { server in
            let (gran, ann, _) = try await Self.family(server)
            let phone = try await TestClient.plain(server)
            try await phone.send("!login gran s3cret-pass")
            try await phone.expect("You joined #family-1.")
            try await gran.send("!account delete s3cret-pass")
            try await gran.expect("everything that was only yours are deleted")
            try await Self.expectGranLeft(ann)
            try await Self.expectShutOut(phone, ann: ann)
            try await Self.expectShutOut(gran, ann: ann)
        }
    }

    /// A channel whose modes let in accounts only (+i, +I a:*): left on logout, and closed again.
    @Test func logoutLeavesAChannelOnlyAccountsMayJoin() async throws {
        try await withServer { server in
            let op = try await TestClient.irc(server, nick: "op")
            try await op.send("JOIN #members")
            try await op.expectNumeric("366")
            try await op.send("MODE #members +iI a:*")
            try await op.expect("MODE #members +iI :a:*")
            let bea = try await ChannelListTests.account(server, "bea")
            try await bea.send("JOIN #members")
            try await bea.expectNumeric("366")
            try await op.expect(" JOIN #members")
            try await bea.send("PRIVMSG hearth :!logout")
            try await bea.expect(" PART #members :Logged out")
            let part = try await op.expect("bea's PART") { $0.contains(" PART #members") }
            #expect(part.hasPrefix(":bea!"), "\(part)")
            try await op.send("PRIVMSG #members :members only")
            try await bea.send("JOIN #members")
            try await bea.expectNoLine(containing: "members only", before: " 473 ")
        }
    }

    /// A registered channel's owner is its operator because of the account. Logged out, the
    /// connection stays in the public channel (anyone may be there) but gives the ops up, with a
    /// MODE the others see: after `!logout`, and after `!recover` from another connection.
    @Test func logoutGivesUpTheOpsTheAccountGave() async throws {
        try await withServer { server in
            let uma = try await TestClient.irc(server, nick: "uma")
            try await uma.send("PRIVMSG hearth :!register uma s3cret-pass")
            let codes = SecretsTests.codes(
                in: try await uma.expect("the recovery codes", timeout: 30) { SecretsTests.codes(in: $0).count == 8 })
            try await uma.send("JOIN #bakers")
            try await uma.expectNumeric("366")
            try await uma.send("PRIVMSG hearth :!channel register #bakers")
            try await uma.expect("#bakers is yours now")
            let vic = try await TestClient.irc(server, nick: "vic")
            try await vic.send("JOIN #bakers")
            try await vic.expectNumeric("366")

            /// uma joins again as the owner, and so gets ops.
            func ownerRejoins() async throws {
                try await uma.send("PART #bakers")
                try await vic.expect("uma's PART") { $0.hasPrefix(":uma!") && $0.contains(" PART ") }
                try await uma.send("JOIN #bakers")
                let names = try await uma.expectNumeric("353")
                #expect(names.contains("@uma"), "\(names)")
                try await vic.expect("uma's JOIN") { $0.hasPrefix(":uma!") && $0.contains(" JOIN ") }
            }
            /// uma, now a guest, is still in #bakers without ops, and everyone saw them go.
            func expectDeopped() async throws {
                try await uma.expect(" MODE #bakers -o ")
                let deop = try await vic.expect("uma's MODE -o") { $0.contains(" MODE #bakers ") }
                #expect(
                    deop.hasPrefix(":uma!") && deop.contains(" MODE #bakers -o ") && deop.hasSuffix("uma"), "\(deop)")
                let renamed = try await vic.expect("uma's guest nick") {
                    $0.hasPrefix(":uma!") && $0.contains(" NICK ")
                }
                let guest = String(renamed.split(separator: " ").last!.drop { $0 == ":" })
                try await uma.send("MODE #bakers +m")
                try await uma.expect(" 482 \(guest) #bakers ")
                try await vic.send("NAMES #bakers")
                let names = try await vic.expectNumeric("353")
                #expect(names.contains(guest) && !names.contains("@"), "\(names)")
            }

            try await ownerRejoins()
            try await uma.send("PRIVMSG hearth :!logout")
            try await expectDeopped()

            try await uma.send("PRIVMSG hearth :!login uma s3cret-pass")
            try await uma.expect("You are now logged in as uma")
            try await ownerRejoins()
            let stranger = try await TestClient.plain(server)
            try await stranger.send("!recover uma \(codes[0]) n3w-s3cret-pass")
            try await expectDeopped()
        }
    }
}
