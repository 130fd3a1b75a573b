import Foundation
import HearthApps
import HearthTesting
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// `!edamam` against a local server answering in Edamam's documented JSON shape.
@Suite struct EdamamTests {
    static let body = """
        {"from":1,"to":2,"count":2,"_links":{},"hits":[
          {"recipe":{"uri":"http://www.edamam.com/ontologies/edamam.owl#recipe_1","label":"Chicken Curry",
            "image":"https://example.org/c.jpg",
            "source":"Serious Eats","url":"https://example.org/chicken-curry","yield":4,"dietLabels":["High-Protein"],
            "healthLabels":["Dairy-Free"],
            "ingredientLines":["1 kg chicken thighs","2 onions","3 tbsp curry paste"],"calories":1800.5,
            "totalTime":45.0,
            "cuisineType":["indian"],"mealType":["lunch/dinner"],"dishType":["main course"]},"_links":{}},
          {"recipe":{"uri":"http://www.edamam.com/ontologies/edamam.owl#recipe_2","label":"Green Curry",
            "source":"Food52",
            "url":"https://example.org/green-curry","ingredientLines":["coconut milk","green curry paste"],
            "totalTime":0,
            "cuisineType":["south east asian"]},"_links":{}}]}
        """

    final class Seen: Sendable { let queries = Mutex<[String]>([]) }

    /// Starts the fake Edamam, answering with `answer` (default: `body`); returns its port
    /// and what it was asked.
    static func fakeEdamam(
        answer: @escaping @Sendable (Request) -> String = { _ in body }
    ) async throws -> (port: Int, seen: Seen, group: ServiceGroup) {
        let seen = Seen()
        let router = Router()
        router.get("/api/recipes/v2") { request, _ -> Response in
            seen.queries.withLock { $0.append(request.uri.query ?? "") }
            guard request.uri.queryParameters["app_key"] == "test-key" else {
                return Response(status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: "[]")))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: answer(request))))
        }
        let port = Mutex<Int?>(nil)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } },
            logger: Logger(label: "fake-edamam"))
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "fake-edamam")))
        Task { try await group.run() }
        for _ in 0..<200 where port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        return (try #require(port.withLock { $0 }), seen, group)
    }

    @Test func searchShowsResultsAndSaveImportsOneCitingItsSource() async throws {
        let (port, seen, fake) = try await Self.fakeEdamam()
        defer { Task { await fake.triggerGracefulShutdown() } }
        try await withServer {
            $0.apps.edamam = EdamamConfig(appID: "test-id", appKey: "test-key", baseURL: "http://127.0.0.1:\(port)")
        } run: { server in
            let uma = try await TestClient.user(server, "uma")
            try await uma.send("!edamam save 1")
            try await uma.expect("there is no result 1 — search first")
            try await uma.send("!edamam chicken curry")
            try await uma.expect("From Edamam:")
            try await uma.expect(
                "1. Chicken Curry — Serious Eats · 3 ingredients · indian · 45 min · https://example.org/chicken-curry")
            try await uma.expect(
                "2. Green Curry — Food52 · 2 ingredients · south east asian · https://example.org/green-curry")
            let query = try #require(seen.queries.withLock { $0.first })
            #expect(
                query.contains("type=public") && query.contains("q=chicken%20curry") && query.contains("app_id=test-id")
            )
            try await uma.send("!edamam save 1")
            try await uma.expect("Imported as recipe #1 “Chicken Curry” (source: Serious Eats)")
            try await uma.send("!recipe 1")
            try await uma.expect("#1 Chicken Curry by uma")
            try await uma.expect("source: Serious Eats — https://example.org/chicken-curry (via Edamam)")
            try await uma.expect("• 1 kg chicken thighs")
            try await uma.send("!search curry")
            try await uma.expect("Found 1:")
        }
    }

    @Test func withoutKeysItSaysHowToConfigureAndBadKeysAreExplained() async throws {
        let plain = try await TestServer.start()
        let vic = try await TestClient.user(plain, "vic")
        try await vic.send("!edamam soup")
        try await vic.expect(
            "Edamam is not set up on this server: the operator starts Hearth with --edamam-app-id ID "
                + "--edamam-app-key KEY"
        )
        await plain.stop()

        let (port, _, fake) = try await Self.fakeEdamam()
        defer { Task { await fake.triggerGracefulShutdown() } }
        try await withServer {
            $0.apps.edamam = EdamamConfig(appID: "test-id", appKey: "wrong", baseURL: "http://127.0.0.1:\(port)")
        } run: { server in
            let wes = try await TestClient.user(server, "wes")
            try await wes.send("!edamam soup")
            try await wes.expect("Edamam refused the app id or key")
        }
    }
}
