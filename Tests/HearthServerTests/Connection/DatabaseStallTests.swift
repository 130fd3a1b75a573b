import Foundation
import HearthStore
import HearthTesting
import PostgresNIO
import Testing

/// PostgreSQL stuck (its only pooled connection waiting on a row someone else holds locked):
/// chat goes on, a command that needs the database answers "try again" within the timeout,
/// and everything works again once the lock is let go.
@Suite struct DatabaseStallTests {
    @Test func chatGoesOnWhileTheDatabaseIsStuck() async throws {
        let database = try await TestPostgres.freshDatabase("stall")
        try await withServer {
            $0.database = database
            $0.databasePool = 1
            $0.operationTimeout = PostgresStore.defaultOperationTimeout  // the limit this test is about
        } run: { server in
            let ann = try await TestClient.user(server, "ann")
            let bob = try await TestClient.irc(server, nick: "bob")
            let cat = try await TestClient.irc(server, nick: "cat")
            for c in [bob, cat] {
                try await c.send("JOIN #calm")
                try await c.expectNumeric("366")
            }
            // Someone else holds ann's account row: her next change waits on it, holding the pool.
            let holder = try await PostgresConnection.connect(
                configuration: .init(
                    host: database.host, port: database.port, username: database.user, password: database.password,
                    database: database.database, tls: .disable),
                id: 9, logger: .init(label: "holder"))
            try await holder.query("BEGIN", logger: .init(label: "holder"))
            try await holder.query(
                "SELECT 1 FROM account WHERE nameKey = 'ann' FOR UPDATE", logger: .init(label: "holder"))
            try await ann.send("!bio written while the row is held")

            // Chat between others is not held up by it: the line arrives while the command still
            // waits (it gives up at the store's timeout, 5 s; a bound of 2 s on the wall clock was
            // a stall of a loaded machine away from failing).
            try await bob.send("PRIVMSG #calm :still talking")
            try await cat.expect("PRIVMSG #calm :still talking")
            #expect(!ann.unread().contains { $0.contains("Please try again") }, "the line waited for the database")

            // The stuck command gives up with a clear answer, nothing changed.
            try await ann.expect("Please try again", timeout: 12)
            try await holder.query("ROLLBACK", logger: .init(label: "holder"))
            try await holder.close()
            try await ann.send("!bio written after")
            try await ann.expect("Your bio now reads: written after", timeout: 10)
        }
    }
}
