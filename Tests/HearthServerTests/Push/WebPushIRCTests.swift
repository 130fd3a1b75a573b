import Foundation
import HearthStore
import HearthTesting
import Synchronization
import Testing

/// draft/webpush from a raw IRC client, and deliveries to a push-service stand-in that checks
/// the VAPID token and decrypts every message.
@Suite struct WebPushIRCTests {
    /// ann, logged in over IRC with draft/webpush, with one device registered at the stand-in.
    static func subscribed(_ server: TestServer, _ service: PushServiceStandIn) async throws
        -> (TestClient, PushServiceStandIn.Device, vapid: String)
    {
        try await TestClient.register(server, "ann", "s3cret-pass")
        let ann = try await TestClient.connect(port: server.ircPort)
        try await ann.send("CAP LS 302")
        try await ann.expect("draft/webpush")
        for line in ["CAP REQ :draft/webpush", "PASS ann:s3cret-pass", "NICK ann", "USER ann 0 * :Ann", "CAP END"] {
            try await ann.send(line)
        }
        try await ann.expect("ACK :draft/webpush")
        let isupport = try await ann.expect("VAPID=")
        let vapid = try #require(
            isupport.split(separator: " ").first { $0.hasPrefix("VAPID=") }.map { String($0.dropFirst(6)) })
        try await ann.expectNumeric("376")
        let device = service.newDevice()
        let endpoint = service.endpoint(device)
        try await ann.send("WEBPUSH REGISTER \(endpoint) p256dh=\(device.p256dh);auth=\(device.authText)")
        try await ann.expect("WEBPUSH REGISTER \(endpoint) ")
        return (ann, device, vapid)
    }

    static func annsDevices(_ server: TestServer) async throws -> [PushSubscription] {
        let ann = try #require(try await server.server.store.account(nameKey: "ann"))
        return try await server.server.store.pushSubscriptions(accountID: ann.id, now: Date())
    }

    @Test func aPrivateMessageToAnAccountWithNoConnectionIsPushedAndA410ForgetsTheDevice() async throws {
        let service = try await PushServiceStandIn.start()
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
        } run: { server in
            let (ann, device, vapid) = try await Self.subscribed(server, service)
            #expect(try await Self.annsDevices(server).map(\.source) == [.irc])
            try await ann.send("QUIT")
            try await ann.expectClosed()
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("/msg ann are you there?")
            try await bob.expect("ann is offline")
            let got = try #require(await service.next())
            #expect(got.device == device.id && got.status == 201)
            #expect(got.text.hasPrefix(":bob") && got.text.hasSuffix("PRIVMSG ann :are you there?"), "\(got.text)")
            #expect(got.vapidKey == vapid, "signed with the key ISUPPORT advertises")
            #expect(got.urgency == "high" && got.ttl != nil)
            // The push service says the device is gone: it is forgotten.
            service.script.withLock { $0[device.id] = [410] }
            try await bob.send("/msg ann hello?")
            #expect(try #require(await service.next()).status == 410)
            try await waitUntil("the subscription to be removed") { try await Self.annsDevices(server).isEmpty }
            #expect(service.refused.withLock { $0 }.isEmpty)
        }
    }

    @Test func aFailingPushServiceIsTriedAgain() async throws {
        let service = try await PushServiceStandIn.start()
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
        } run: { server in
            let (ann, device, _) = try await Self.subscribed(server, service)
            try await ann.send("QUIT")
            try await ann.expectClosed()
            service.script.withLock { $0[device.id] = [503] }
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("/msg ann ping")
            #expect(try #require(await service.next()).status == 503)
            let again = try #require(await service.next())
            #expect(again.status == 201 && again.text.hasSuffix("PRIVMSG ann :ping"))
            #expect(try await Self.annsDevices(server).count == 1, "kept: 503 is not 410")
        }
    }

    @Test func aMentionWhileAwayIsPushedEvenWhileConnected() async throws {
        let service = try await PushServiceStandIn.start()
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
        } run: { server in
            let (ann, _, _) = try await Self.subscribed(server, service)
            try await ann.send("JOIN #tea")
            try await ann.expect("JOIN #tea")
            let bob = try await TestClient.irc(server, nick: "bob")
            try await bob.send("JOIN #tea")
            try await bob.expect("366")
            try await bob.send("PRIVMSG #tea :nobody home")
            try await ann.expect("nobody home")
            try await ann.send("AWAY :out")
            try await ann.expectNumeric("306")
            try await bob.send("PRIVMSG #tea :ann, the kettle!")
            let got = try #require(await service.next())
            #expect(got.text.hasSuffix("PRIVMSG #tea :ann, the kettle!"), "\(got.text)")
        }
    }

    @Test func registeringNeedsAnAccountValidKeysAndAnAllowedEndpoint() async throws {
        try await withServer { server in
            let guest = try await TestClient.irc(server, nick: "guest")
            try await guest.send("WEBPUSH REGISTER https://push.example/1 p256dh=x;auth=y")
            try await guest.expect("FAIL WEBPUSH FORBIDDEN REGISTER")
            try await TestClient.register(server, "cy", "s3cret-pass")
            let cy = try await TestClient.irc(server, nick: "cy", extra: ["PASS cy:s3cret-pass"])
            let key = "p256dh=BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
            try await cy.send("WEBPUSH REGISTER https://push.example/1 \(key);auth=short")
            try await cy.expect("FAIL WEBPUSH INVALID_PARAMS REGISTER")
            // Without --push-local-endpoints: neither http nor a private address.
            try await cy.send("WEBPUSH REGISTER http://push.example/1 \(key);auth=BTBZMqHH6r4Tts7J_aSIgg")
            try await cy.expect("must be https")
            try await cy.send("WEBPUSH REGISTER https://10.0.0.1/1 \(key);auth=BTBZMqHH6r4Tts7J_aSIgg")
            try await cy.expect("not a public address")
            try await cy.send("WEBPUSH REGISTER https://push.example/1 \(key);auth=BTBZMqHH6r4Tts7J_aSIgg")
            try await cy.expect("WEBPUSH REGISTER https://push.example/1 ")
            try await cy.send("WEBPUSH UNREGISTER https://push.example/1")
            try await cy.expect("WEBPUSH UNREGISTER :https://push.example/1")
        }
    }
}
