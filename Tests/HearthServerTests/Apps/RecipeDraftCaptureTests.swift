import Foundation
import HearthTesting
import Testing

@testable import HearthServer

/// Issue 33, item 9: in plain mode a recipe draft took "Did anyone see my glasses?" as its
/// title and the family never saw it. What the draft takes is said back, a question is chat,
/// `/cancel` and `Core.captureIdleTimeout` make lines chat again.
@Suite struct RecipeDraftCaptureTests {
    @Test func aDraftsCaptureIsVisibleAndEscapable() async throws {
        let clock = TestClock("2026-11-27T10:00:00Z")
        try await stopping(try await TestServer.start { $0.clock = clock.hearth }) { server in
            let gran = try await TestClient.user(server, "gran")
            let kid = try await TestClient.user(server, "kid")
            for who in [gran, kid] {
                try await who.send("/join #kin")
                try await who.expect("You joined #kin.")
            }
            try await gran.send("!recipe new")
            try await gran.expect("/cancel makes your lines chat again")
            // A question is chat: the family sees it, and gran is told the recipe did not take it.
            try await gran.send("Did anyone see my glasses?")
            try await kid.expect("[#kin] <gran> Did anyone see my glasses?")
            try await gran.expect(
                "(That looked like chat, so it went to your channel, not into the recipe. What is the recipe called?")
            // The title it takes is said back.
            try await gran.send("Apple crumble")
            try await gran.expect("Title: “Apple crumble”. Ingredients, one per line")
            // /cancel: her lines are chat again, and the draft is kept.
            try await gran.send("/cancel")
            try await gran.expect("Your lines are chat again; the bot stopped collecting them (what it has is kept).")
            try await gran.send("found them")
            try await kid.expect("[#kin] <gran> found them")
            try await gran.send("/cancel")
            try await gran.expect("Nothing to cancel: your lines are chat already.")

            // Collecting again; a line at exactly the idle limit is still taken, one past it is chat.
            try await gran.send("!recipe new")
            try await gran.expect("“Apple crumble” (0 ingredients, 0 steps) — let's continue.")
            try await gran.send("4 apples")
            let limit = Core.captureIdleTimeout
            #expect(limit == 600)
            clock.set("2026-11-27T10:10:00Z")
            try await gran.send("100 g flour")
            try await gran.send(".")
            try await gran.expect("Steps, one per line")
            clock.set("2026-11-27T10:20:01Z")
            try await gran.send("Bake for 30 minutes")
            try await gran.expect(
                "(The bot was collecting your lines but had none for 10 minutes: they are chat again.)")
            try await kid.expect("[#kin] <gran> Bake for 30 minutes")
            try await gran.send("!recipe new")
            try await gran.expect(
                "“Apple crumble” (2 ingredients, 0 steps) — let's continue. Steps, one per line")
        }
    }
}
