import Foundation
import HearthServer
import HearthStore
import HearthTesting
import NIOConcurrencyHelpers
import Testing

/// `kill -9` in the middle of writes, with either I/O layer: every write the bot acknowledged is
/// there after a restart, and the server starts again on the same data.
@Suite struct KillTests {
    /// Writers that keep commenting while the server is killed.
    static let writers = 3
    /// Acknowledged comments each writer has before the kill (it goes on writing).
    static let ackedBeforeKill = 5
    /// The most comments a writer sends (a bound: the kill comes long before).
    static let maxComments = 2000

    /// Recipe id → ids of the comments the bot acknowledged on it.
    typealias Acked = NIOLockedValueBox<[Int: Set<Int64>]>

    @Test(arguments: IOMode.allCases) func acknowledgedWritesSurviveSigkill(io: IOMode) async throws {
        let dir = TestServer.tempDirectory()
        let acked = Acked([:])
        let (_, killed) = try await Programs.serving(dataDirectory: dir, ["--io", io.rawValue, "--no-flood-control"]) {
            running, port in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<Self.writers {
                    group.addTask { try await Self.write(index, port: port, acked: acked) }
                }
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline {
                    let counts = acked.withLockedValue { $0.values.map(\.count) }
                    if counts.count == Self.writers && counts.allSatisfy({ $0 >= Self.ackedBeforeKill }) { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                running.kill()
                try await group.waitForAll()
            }
        }
        #expect(killed.status == 128 + SIGKILL, "\(killed.output)")
        let recipes = acked.withLockedValue { $0 }
        #expect(recipes.count == Self.writers && recipes.values.allSatisfy { $0.count >= Self.ackedBeforeKill })

        // Started again on the same data, it serves what was written.
        let (_, restarted) = try await Programs.serving(dataDirectory: dir, ["--io", io.rawValue]) { _, port in
            let reader = try await TestClient.connect(port: port)
            try await reader.send("/help")
            try await reader.expect("Welcome to")
            for recipe in recipes.keys {
                try await reader.send("!comments recipe \(recipe)")
                try await reader.expect("recipe #\(recipe)")
                try await reader.expect(": c-")
            }
        }
        #expect(restarted.status == 0, "\(restarted.output)")

        let store = try SQLiteStore(dataDirectory: dir)
        for (recipe, ids) in recipes {
            var found = Set<Int64>()
            for page in 1...1000 {
                let (rows, _) = try await store.comments(
                    kind: "recipe", targetID: Int64(recipe), page: page, viewer: nil)
                if rows.isEmpty { break }
                found.formUnion(rows.map(\.id))
            }
            #expect(ids.isSubset(of: found), "recipe #\(recipe) lost \(ids.subtracting(found).sorted())")
        }
    }

    /// Registers, posts a recipe, then comments on it until the server goes away, noting each
    /// comment the bot acknowledged.
    static func write(_ index: Int, port: Int, acked: Acked) async throws {
        let client = try await TestClient.connect(port: port)
        try await client.send("/help")
        try await client.expect("Welcome to")
        try await client.send("!register killed\(index) s3cret-pass")
        try await client.expect("Welcome to Hearth", timeout: 30)
        let recipe = try await RecipeTests.post(
            client, title: "Stew \(index)", ingredients: ["1 onion"], steps: ["Cook."])
        acked.withLockedValue { $0[recipe] = [] }
        for n in 1...maxComments {
            try? await client.send("!comment recipe \(recipe) c-\(index)-\(n)")
            guard let line = await client.next(where: { $0.contains("added to recipe #\(recipe)") }),
                let id = Int64(line.split(separator: "#")[1].split(separator: " ")[0])
            else { return }
            acked.withLockedValue { _ = $0[recipe]!.insert(id) }
        }
    }
}
