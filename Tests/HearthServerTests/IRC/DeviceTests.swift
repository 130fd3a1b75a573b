import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// One account on several connections shares one nick: the others see one user.
@Suite struct DeviceTests {
    /// An IRC connection logged in with PASS, using the account's nick.
    static func laptop(_ server: TestServer, _ name: String, caps: [String] = []) async throws -> TestClient {
        var extra = ["PASS \(name):s3cret-pass"]
        if !caps.isEmpty { extra = ["CAP LS 302", "CAP REQ :\(caps.joined(separator: " "))", "CAP END"] + extra }
        return try await TestClient.irc(server, nick: name, extra: extra)
    }

    /// Waits until `client` has everything sent before, and checks none of it contained `leak`.
    static func nothing(_ client: TestClient, containing leak: String) async throws {
        let mark = "mark\(UInt32.random(in: 0...UInt32.max))"
        try await client.send("PING \(mark)")
        try await client.expectNoLine(containing: leak, before: mark)
    }

    @Test func laptopAndPhoneAreOneUser() async throws {
        try await withServer { server in
            try await TestClient.register(server, "dana", "s3cret-pass")
            let laptop = try await Self.laptop(server, "dana")
            try await laptop.send("JOIN #kitchen")
            try await laptop.expectNumeric("366")
            let eli = try await TestClient.irc(server, nick: "eli")
            try await eli.send("JOIN #kitchen")
            try await eli.expectNumeric("366")
            try await laptop.expect("JOIN #kitchen")

            // The phone logs in from nc: it becomes dana too, inside #kitchen, and eli sees nothing.
            let phone = try await TestClient.plain(server)
            try await phone.send("!login dana s3cret-pass")
            try await phone.expect("You are dana on 2 connections now")
            try await phone.expect("You joined #kitchen.")
            try await Self.nothing(eli, containing: "JOIN")
            try await eli.send("NAMES #kitchen")
            let names = try await eli.expectNumeric("353")
            #expect(names.components(separatedBy: "dana").count == 2, "dana listed once: \(names)")
            try await eli.send("LIST #kitchen")
            try await eli.expect(" 322 eli #kitchen 2 ")

            // A private message to dana reaches both devices.
            try await eli.send("PRIVMSG dana :dinner at 7?")
            try await laptop.expect(":eli!~eli@\(server.localHost) PRIVMSG dana :dinner at 7?")
            try await phone.expect("[pm] <eli> dinner at 7?")
            // What one device sends, the other sees — to a person and to a channel.
            try await laptop.send("PRIVMSG eli :yes, I'll bring bread")
            try await eli.expect("PRIVMSG eli :yes, I'll bring bread")
            try await phone.expect("[to eli] yes, I'll bring bread")
            try await phone.send("typed on the phone")
            try await eli.expect(":dana!")
            try await laptop.expect("PRIVMSG #kitchen :typed on the phone")

            // A part from one device takes the user out; everyone sees one PART.
            try await phone.send("/part")
            try await eli.expect("PART :#kitchen")
            try await laptop.expect("PART :#kitchen")
            try await Self.nothing(eli, containing: "PART")
            try await laptop.send("JOIN #kitchen")
            try await phone.expect("You joined #kitchen.")
            try await eli.expect("JOIN #kitchen")

            // Quitting the laptop keeps the phone: no QUIT for eli, and dana still answers.
            try await laptop.send("QUIT :closing the lid")
            try await Self.nothing(eli, containing: "QUIT")
            try await eli.send("PRIVMSG dana :still there?")
            try await phone.expect("[pm] <eli> still there?")
            try await eli.send("WHOIS dana")
            try await eli.expect(" 319 eli dana :")
            // The last device leaving is a real quit.
            try await phone.send("/quit")
            try await eli.expect("QUIT")
        }
    }

    @Test func secondIRCDeviceRegistersWithTheSharedNick() async throws {
        try await withServer { server in
            try await TestClient.register(server, "fern", "s3cret-pass")
            let first = try await Self.laptop(server, "fern")
            try await first.send("JOIN #garden")
            try await first.expectNumeric("366")
            try await first.send("TOPIC #garden :tomatoes")
            try await first.expect("TOPIC #garden :tomatoes")

            // The second IRC client gets 001 as fern and then the channels fern is in.
            let second = try await Self.laptop(server, "fern", caps: ["echo-message"])
            try await second.expect("You are fern on 2 connections now")
            try await second.expect(":fern!~fern@\(server.localHost) JOIN #garden")
            try await second.expect(" 332 fern #garden :tomatoes")

            // A stranger can't take the nick by registering with it.
            let guest = try await server.connect()
            try await guest.send("NICK fern")
            try await guest.send("USER x 0 * :x")
            try await guest.expect(" 433 ")

            // A nick change moves both devices; the holder quitting passes the nick on.
            let gil = try await TestClient.irc(server, nick: "gil")
            try await gil.send("JOIN #garden")
            try await gil.expectNumeric("366")
            try await second.send("NICK fern_away")
            try await first.expect(":fern!~fern@\(server.localHost) NICK fern_away")
            try await gil.expect("NICK fern_away")
            try await Self.nothing(gil, containing: "NICK")
            try await first.send("QUIT")
            try await Self.nothing(gil, containing: "QUIT")
            try await gil.send("PRIVMSG fern_away :ping")
            try await second.expect("PRIVMSG fern_away :ping")
            // KICK takes out the user, every device.
            try await gil.send("MODE #garden +o gil")
            try await second.send("MODE #garden +o gil")
            try await gil.expect("MODE #garden +o :gil")
            try await gil.send("KICK #garden fern_away :weeding")
            try await second.expect("KICK #garden fern_away :weeding")
            try await gil.send("NAMES #garden")
            let names = try await gil.expectNumeric("353")
            #expect(!names.contains("fern"))
        }
    }

    @Test func devicesAreLimitedAndLogoutDetaches() async throws {
        try await withServer { server in
            try await TestClient.register(server, "hana", "s3cret-pass")
            var devices: [TestClient] = []
            for _ in 0..<Core.maxDevicesPerUser {
                devices.append(try await Self.laptop(server, "hana"))
            }
            try await devices[0].send("JOIN #home")
            for device in devices { try await device.expect("JOIN #home") }
            // One more than the limit keeps a nick of its own.
            let extra = try await server.connect()
            try await extra.send("PASS hana:s3cret-pass")
            try await extra.send("NICK hana")
            try await extra.send("USER hana 0 * :hana")
            try await extra.expect(
                "433 hana hana :Nickname is already in use (on at most \(Core.maxDevicesPerUser) connections at once)")

            // Logging out on one device takes it out of the user's channels and nick only.
            let ivo = try await TestClient.irc(server, nick: "ivo")
            try await ivo.send("JOIN #home")
            try await ivo.expectNumeric("366")
            try await devices[1].send("PRIVMSG hearth :!logout")
            try await devices[1].expect("PART :#home")
            try await devices[1].expect(":hana!~hana@\(server.localHost) NICK guest")
            try await Self.nothing(ivo, containing: "hana")
            try await ivo.send("PRIVMSG hana :hello")
            try await devices[0].expect("PRIVMSG hana :hello")
            try await Self.nothing(devices[1], containing: "PRIVMSG hana :hello")
        }
    }
}
