import Foundation
import HearthTesting
import Testing

/// `hearth migrate`: an SQLite Hearth moved into PostgreSQL, and the same Hearth after.
@Suite struct MigrateTests {
    @Test func everythingMovesToPostgresAndWorksThere() async throws {
        let dir = TestServer.tempDirectory()
        let memeLink = try await withServer(dataDirectory: dir) {
            $0.sqliteOnly = true
        } run: { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.user(server, "bob")
            try await ann.send("!bio moved with everything")
            try await ann.expect("Your bio now reads")
            try await bob.send("!follow ann")
            try await bob.expect("You now follow ann.")
            try await ann.send("!meme success it moved | to postgres")
            let link = try Web.link(in: try await ann.expect("meme #1 by ann"))
            try await bob.send("!like 1")
            try await bob.expect("You like meme #1.")
            _ = try await RecipeTests.post(ann, title: "Moving day soup", ingredients: ["boxes"], steps: ["Carry."])
            try await ann.send("!tree new The Movers")
            try await ann.expect("You founded The Movers.")
            try await ann.send("/join #moving")
            try await ann.expect("You joined #moving.")
            try await ann.send("the truck is here")
            try await ann.send("!whoami")  // answered after the line before was handled
            try await ann.expect("You are ann")
            return link
        }
        let url = try await TestPostgres.freshDatabase("migrate")
        let full = "postgres://\(url.user):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)"
        let moved = try await Programs.hearth(["migrate", "--from", dir, "--to", full])
        #expect(moved.status == 0 && moved.output.contains("every table has as many rows"), "\(moved.output)")
        #expect(
            moved.output.contains("account 2") && moved.output.contains("meme 1") && moved.output.contains("pictures"))

        // A new data directory with the same secret, on PostgreSQL.
        let next = TestServer.tempDirectory()
        try FileManager.default.copyItem(atPath: dir + "/secret.key", toPath: next + "/secret.key")
        try await withServer(dataDirectory: next) {
            $0.database = url
        } run: { server in
            let ann = try await TestClient.plain(server)
            try await ann.send("!login ann s3cret-pass")
            try await ann.expect("You are logged in as ann.")
            try await ann.send("!profile")
            try await ann.expect("bio: moved with everything")
            try await ann.send("!meme show 1")
            try await ann.expect("♥ 1 like")
            let there = try #require(URL(string: "http://127.0.0.1:\(server.httpPort)\(memeLink.path)"))
            let (jpeg, response) = try await Web.fetch(there)
            #expect(response.statusCode == 200 && jpeg.starts(with: [0xFF, 0xD8]))
            try await ann.send("!search moving")
            try await ann.expect("Moving day soup")
            try await ann.send("!tree")
            try await ann.expect("The Movers")
            // The channel's old lines, readable by who was in it (history moved with its grants).
            try await ann.send("/join #moving")
            try await ann.expect("You joined #moving.")
            try await ann.send("!history #moving 5")
            try await ann.expect("the truck is here")
            // New rows get new ids after the copied ones.
            try await ann.send("!meme success and a new one | after the move")
            try await ann.expect("meme #2 by ann")
        }
        let again = try await Programs.hearth(["migrate", "--from", dir, "--to", full])
        #expect(again.status != 0 && again.output.contains("already holds Hearth data"), "\(again.output)")
    }
}
