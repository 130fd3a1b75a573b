import Foundation
import HearthStore
import HearthTesting
import Testing

/// Private messages to registered users who are offline wait for their next login.
@Suite struct OfflineMessageTests {
    @Test func keptAndDeliveredWithTheirOriginalTime() async throws {
        try await withServer { server in
            try await TestClient.register(server, "otto", "s3cret-pass")
            try await TestClient.register(server, "pia", "s3cret-pass")
            let otto = try await TestClient.plain(server)
            try await otto.send("!login otto s3cret-pass")
            try await otto.expect("You are logged in as otto.")
            try await otto.send("/msg pia see you at 8")
            try await otto.expect("pia is offline; they will get your message when they next log in.")
            try await otto.send("/msg pia bring the map")
            try await otto.expect("pia is offline")

            // A guest can't leave messages; unknown names are still 401.
            let guest = try await TestClient.irc(server, nick: "visitor")
            try await guest.send("PRIVMSG pia :hello?")
            try await guest.expect(
                " 401 visitor pia :No such nick/channel (log in to leave messages for people who are offline)")
            try await otto.send("/msg nobody-here hi")
            try await otto.expect("error: nobody-here: No such nick/channel")

            // An IRC client with server-time gets them with the original time, after the welcome.
            let pia = try await server.connect()
            try await pia.send("CAP LS 302")
            try await pia.send("CAP REQ :server-time")
            try await pia.send("PASS pia:s3cret-pass")
            try await pia.send("NICK pia")
            try await pia.send("USER pia 0 * :Pia")
            try await pia.send("CAP END")
            try await pia.expectNumeric("376")
            let first = try await pia.expect("PRIVMSG pia :see you at 8")
            #expect(first.hasPrefix("@time=20"))
            #expect(first.contains(" :otto!otto@test.hearth PRIVMSG"))
            try await pia.expect("PRIVMSG pia :bring the map")
            // Delivered once: a second login finds nothing.
            let again = try await TestClient.plain(server)
            try await again.send("!login pia s3cret-pass")
            try await again.expect("You are logged in as pia.")
            try await again.send("!whoami")
            try await again.expectNoLine(containing: "see you at 8", before: "logged in as pia")
        }
    }

    @Test func plainModeShowsWhenItWasSentAndBlocksAndLimitsHold() async throws {
        try await withServer { server in
            try await TestClient.register(server, "quin", "s3cret-pass")
            let rae = try await TestClient.user(server, "rae")
            try await rae.send("/msg quin hello later")
            try await rae.expect("quin is offline")
            let quin = try await TestClient.plain(server)
            try await quin.send("!login quin s3cret-pass")
            try await quin.expect("[pm] <rae> hello later (sent just now)")

            // quin blocks rae, logs out: rae's message is refused, not kept.
            try await quin.send("!block rae")
            try await quin.expect("You blocked rae.")
            try await quin.send("/quit")
            try await quin.expect("Bye!")
            try await rae.send("/msg quin still there?")
            try await rae.expect("error: quin: quin does not accept messages from you")

            // The inbox holds StoreLimits.maxOfflineMessages; one more is refused.
            let store = server.server.store
            let sam = try await TestClient.user(server, "sam")
            let samID = try #require(try await store.account(nameKey: "sam")?.id)
            for i in 0..<StoreLimits.maxOfflineMessages {
                let result = try await store.keepOfflineMessage(
                    recipientKey: "quin", senderID: samID, senderName: "sam", text: "note \(i)")
                #expect(result == .stored)
            }
            try await sam.send("/msg quin one too many")
            try await sam.expect(
                "quin is offline and has \(StoreLimits.maxOfflineMessages) messages waiting already; "
                    + "yours was not kept."
            )
        }
    }
}
