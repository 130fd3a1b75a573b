import Foundation
import HearthTesting
import Testing

/// Two Hearth processes on one PostgreSQL database, each with its own data directory: a picture
/// made on one opens from the other's link (its bytes are in the database, stored once).
@Suite struct SharedPictureTests {
    @Test func aPictureMadeOnOneServerOpensOnAnother() async throws {
        let database = try await TestPostgres.freshDatabase("shared")
        try await withServer {
            $0.database = database
        } run: { first in
            try await withServer {
                $0.database = database
            } run: { second in
                let ann = try await TestClient.user(first, "ann")
                try await ann.send("!meme success made on the first | opened on the second")
                let link = try Web.link(in: try await ann.expect("meme #1 by ann"))
                // The same path on the second server, which never drew it.
                let elsewhere = try #require(URL(string: "http://127.0.0.1:\(second.httpPort)\(link.path)"))
                let (jpeg, response) = try await Web.fetch(elsewhere)
                #expect(response.statusCode == 200 && jpeg.starts(with: [0xFF, 0xD8]))
                let (original, _) = try await Web.fetch(link)
                #expect(jpeg == original)
                // The second server draws on an upload the first one received.
                let (_, uploaded) = try await Web.fetch(
                    try await MemeTests.uploadLink(ann), method: "PUT", body: Web.samplePNG())
                #expect(uploaded.statusCode == 201)
                let short = String(try await ann.expect("Your picture ").split(separator: " ")[2])
                let annThere = try await TestClient.plain(second)
                try await annThere.send("!login ann s3cret-pass")
                try await annThere.expect("You are logged in as ann.")
                try await annThere.send("!meme \(short) drawn on the second | from the first's upload")
                let made = try Web.link(in: try await annThere.expect("meme #2 by ann"))
                let (drawn, drawnResponse) = try await Web.fetch(made)
                #expect(drawnResponse.statusCode == 200 && drawn.starts(with: [0xFF, 0xD8]))
                #expect(try await first.sql.int("SELECT COUNT(*) FROM pictureBlob") >= 1)
            }
        }
    }
}
