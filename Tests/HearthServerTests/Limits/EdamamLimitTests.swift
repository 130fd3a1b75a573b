import Foundation
import GRDB
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthMediaLibrary
import HearthProtocol
import HearthStore
import HearthTesting
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import HearthApps
@testable import HearthMedia
@testable import HearthServer

/// Edamam answers: bytes and results.
extension LimitCrossingTests {
    /// An answer with `count` hits, each a "Dish N".
    static func edamamHits(_ count: Int) -> String {
        let hits = (1...count).map {
            #"{"recipe":{"label":"Dish \#($0)","source":"Test","url":"https://example.org/\#($0)","#
                + #""ingredientLines":["x"]}}"#
        }
        return #"{"hits":["# + hits.joined(separator: ",") + "]}"
    }

    /// An Edamam answer of maxResponseBytes is read, one byte more is not; resultsShown
    /// results are shown, a further one is left out.
    @Test func edamamAnswersAtTheirByteAndResultLimitsAndOnePast() async throws {
        let (edamamPort, _, group) = try await EdamamTests.fakeEdamam { request in
            switch request.uri.queryParameters["q"] {
            case "exact", "over":
                let size = EdamamClient.maxResponseBytes + (request.uri.queryParameters["q"] == "over" ? 1 : 0)
                return EdamamTests.body + String(repeating: " ", count: size - EdamamTests.body.utf8.count)
            case "many": return Self.edamamHits(EdamamClient.resultsShown + 1)
            default: return Self.edamamHits(EdamamClient.resultsShown)
            }
        }
        defer { Task { await group.triggerGracefulShutdown() } }
        try await withServer {
            $0.apps.edamam = EdamamConfig(
                appID: "test-id", appKey: "test-key", baseURL: "http://127.0.0.1:\(edamamPort)")
        } run: { server in
            let uma = try await TestClient.user(server, "uma")
            try await uma.send("!edamam exact")
            try await uma.expect("1. Chicken Curry — Serious Eats")
            try await uma.send("!edamam over")
            try await uma.expect("edamam: something went wrong on our side; nothing was changed.")
            var shown = try await Self.replies(uma, "!edamam few")
            #expect(Self.count(shown, containing: ". Dish ") == EdamamClient.resultsShown)
            shown = try await Self.replies(uma, "!edamam many")
            #expect(Self.count(shown, containing: ". Dish ") == EdamamClient.resultsShown)
            #expect(Self.count(shown, containing: "Dish \(EdamamClient.resultsShown + 1) ") == 0)
        }
    }
}
