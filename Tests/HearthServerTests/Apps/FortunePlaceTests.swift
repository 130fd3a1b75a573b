import Foundation
import HearthTesting
import Testing

/// Issue 40: tens of thousands of towns by name over TCP — "I don't know a place called Lyon"
/// is gone; namesakes are said and chosen with a country; near misses get "did you mean".
@Suite struct FortunePlaceTests {
    @Test func townsByNameNamesakesAndNearMisses() async throws {
        let clock = TestClock("2026-07-01T09:00:00Z")
        try await stopping(try await FortuneTests.start(clock)) { server in
            let lea = try await TestClient.user(server, "lea")
            try await lea.send("!fortune @Lyonn")
            try await lea.expect("I don't know a place called Lyonn — did you mean Lyon or ")
            try await lea.send("!fortune @Lyon, JP")
            try await lea.expect("I know no Lyon in JP — there is Lyon, FR")
            try await lea.send("!fortune @lyon")
            try await lea.expect("opened in Lyon")
            // Without accents, in any case, and a name many towns share.
            clock.set("2026-07-02T09:00:00Z")
            try await lea.send("!fortune @SAINT ETIENNE")
            try await lea.expect("opened in Saint-Étienne")
            clock.set("2026-07-03T09:00:00Z")
            try await lea.send("!fortune @Paris")
            try await lea.expect("opened in Paris")
            try await lea.expect("Paris: the one in France (2.1 M people); also Paris, US — say e.g. @Paris, US.")
            clock.set("2026-07-04T09:00:00Z")
            try await lea.send("!fortune @Paris, US")
            try await lea.expect("opened in Paris, US")
            try await lea.send("!fortune stats")
            let stats = try await lea.expect("4 opened")
            #expect(stats.contains("4 places"), "\(stats)")
            // The family's !loc reads places the same way.
            try await lea.send("!loc on")
            try await lea.expect("Location sharing is on")
            try await lea.send("!loc Zurich")
            try await lea.expect("Shared: Zürich.")
        }
    }
}
