import Foundation
import HearthStore
import HearthTesting
import Synchronization
import Testing

/// The site's side of push: the settings section, subscribing a device with the session and
/// CSRF token, per-kind switches, and the JSON a device's service worker is sent.
@Suite struct WebPushSiteTests {
    /// A new device of the stand-in subscribed on the site for `kinds`, with the site's answer.
    static func subscribe(_ browser: WebBrowser, _ service: PushServiceStandIn, kinds: String) async throws
        -> (PushServiceStandIn.Device, String)
    {
        let device = service.newDevice()
        let answer = try await browser.post(
            "/push/subscribe",
            form: [
                "endpoint": service.endpoint(device), "p256dh": device.p256dh, "auth": device.authText,
                "kinds": kinds,
            ])
        return (device, answer.body)
    }

    @Test func aDeviceSubscribedOnTheSiteGetsTheKindsItSwitchedOn() async throws {
        let service = try await PushServiceStandIn.start()
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
        } run: { server in
            try await TestClient.register(server, "ann", "s3cret-pass")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("ann")
            let settings = try await browser.get("/settings").body
            #expect(settings.contains("id=\"push\" data-vapid=\"") && settings.contains("/static/push.js?v="))
            let device = service.newDevice()
            var form = [
                "endpoint": service.endpoint(device), "p256dh": device.p256dh, "auth": device.authText,
                "kinds": "family",
            ]
            // The CSRF token and the session are both needed.
            #expect(try await browser.post("/push/subscribe", form: form, csrf: false).status == 403)
            #expect(try await WebBrowser(server).post("/push/subscribe", form: form).status != 200)
            var answer = try await browser.post("/push/subscribe", form: form)
            #expect(answer.status == 200 && answer.body == #"{"kinds":"family"}"#)
            // Renewing without kinds keeps them.
            form["kinds"] = nil
            answer = try await browser.post("/push/subscribe", form: form)
            #expect(answer.body == #"{"kinds":"family"}"#)
            let bob = try await TestClient.user(server, "bob")
            try await bob.send("/msg ann not pushed: private messages are off")
            try await bob.expect("ann is offline")
            form["kinds"] = "dm,mention"
            answer = try await browser.post("/push/subscribe", form: form)
            #expect(answer.body == #"{"kinds":"dm,mention"}"#)
            try await bob.send("/msg ann now it is")
            let got = try #require(await service.next())
            let note = try JSONDecoder().decode([String: String].self, from: Data(got.text.utf8))
            #expect(note["body"] == "bob: now it is" && note["kind"] == "dm")
            #expect(note["url"]?.hasSuffix("/chat") == true && note["title"] != nil)
            // Bad keys and endpoints are refused, and nothing changes.
            form["p256dh"] = "short"
            #expect(try await browser.post("/push/subscribe", form: form).status == 400)
            #expect(
                try await browser.post("/push/unsubscribe", form: ["endpoint": service.endpoint(device)]).status == 200)
            let ann = try #require(try await server.server.store.account(nameKey: "ann"))
            #expect(try await server.server.store.pushSubscriptions(accountID: ann.id, now: Date()).isEmpty)
        }
    }

    @Test func aFamilyPostIsPushedToAMemberWithNoConnection() async throws {
        let service = try await PushServiceStandIn.start()
        defer { Task { await service.stop() } }
        try await withServer {
            $0.pushLocalEndpoints = true
        } run: { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.user(server, "bob")
            try await ann.send("!tree new The Rivers")
            try await ann.expect("You founded The Rivers.")
            try await ann.send("!tree invite as partner")
            let code = try FamilyTests.code(in: try await ann.expect("as your partner: "))
            try await bob.send("!tree join \(code)")
            try await bob.expect("Welcome to The Rivers")
            try await bob.send("/quit")
            try await bob.expect("Bye!")
            let browser = WebBrowser(server)
            _ = try await browser.signIn("bob")
            #expect(try await Self.subscribe(browser, service, kinds: "family").1 == #"{"kinds":"family"}"#)
            try await ann.send("!post hello all")
            try await ann.expect("Posted #")
            let got = try #require(await service.next())
            let note = try JSONDecoder().decode([String: String].self, from: Data(got.text.utf8))
            #expect(note["kind"] == "family" && note["body"] == "ann posted to The Rivers: “hello all”", "\(note)")
            #expect(note["url"]?.contains("/family/") == true)
        }
    }
}
