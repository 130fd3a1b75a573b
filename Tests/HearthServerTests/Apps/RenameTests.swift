import Foundation
import HearthTesting
import Testing

/// Issue 33: renaming broke every link already posted. Old names lead to the new one until
/// someone else takes them, on the web and in `!profile`.
@Suite struct RenameTests {
    @Test func oldLinksAndProfileFollowARename() async throws {
        try await withServer { server in
            let dan = try await TestClient.user(server, "dan")
            let ann = try await TestClient.user(server, "ann")
            let bo = try await TestClient.user(server, "bo")
            try await dan.send("!block bo")
            try await dan.expect("You blocked bo")
            try await dan.send("!rename danny")
            try await dan.expect("Your account is now called danny.")

            let site = "http://127.0.0.1:\(server.httpPort)"
            for (old, new) in [("/u/dan", "/u/danny"), ("/fortunes/DAN?page=2", "/fortunes/danny?page=2")] {
                let (_, moved) = try await Web.fetch(URL(string: site + old)!)
                #expect(moved.statusCode == 308, "\(old)")
                #expect(moved.value(forHTTPHeaderField: "Location") == new, "\(old)")
                #expect(moved.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
            }
            let (page, shown) = try await Web.fetch(URL(string: site + "/u/danny")!)
            #expect(shown.statusCode == 200 && String(decoding: page, as: UTF8.self).contains("danny"))
            let (_, never) = try await Web.fetch(URL(string: site + "/u/nobody")!)
            #expect(never.statusCode == 404)

            try await ann.send("!profile dan")
            try await ann.expect("dan is now danny.")
            try await ann.expect("danny — joined")
            // Someone danny blocks is not told the new name.
            try await bo.send("!profile dan")
            try await bo.expect("nobody is called dan")

            // Once someone else is called dan, dan is theirs.
            let newDan = try await TestClient.user(server, "dan")
            try await ann.send("!profile dan")
            try await ann.expectNoLine(containing: "is now", before: "dan — joined")
            let (theirs, ok) = try await Web.fetch(URL(string: site + "/u/dan")!)
            #expect(ok.statusCode == 200 && !String(decoding: theirs, as: UTF8.self).contains("danny"))
            _ = newDan
        }
    }
}
