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

/// Bot input: drafts, posts, comments, searches, accounts.
extension LimitCrossingTests {
    @Test func recipeDraftLimitsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let ama = try await TestClient.user(server, "ama")
            try await ama.send("!recipe new")
            try await ama.expect("What is the recipe called?")
            let title = "R" + String(repeating: "r", count: RecipeCommands.maxTitle - 1)
            try await ama.send(title + "r")
            try await ama.expect("a title may have \(RecipeCommands.maxTitle) characters")
            try await ama.send(title)
            try await ama.expect("Ingredients, one per line")

            let longLine = "I" + String(repeating: "i", count: RecipeCommands.maxLine - 1)
            try await ama.send(longLine + "i")
            try await ama.expect(
                "that line has \(RecipeCommands.maxLine + 1) characters; the limit is \(RecipeCommands.maxLine)")
            try await ama.send(longLine)
            for i in 2...RecipeCommands.maxIngredients { try await ama.send("ingredient \(i)") }
            try await ama.send("one ingredient too many")
            // A burst of lines: a loaded machine answers slowly, so wait for the answer longer.
            try await ama.expect(
                "a recipe may have \(RecipeCommands.maxIngredients) ingredients; end them with .", timeout: 120)
            try await ama.send(".")
            try await ama.expect("Steps, one per line")
            for i in 1...RecipeCommands.maxSteps { try await ama.send("step \(i)") }
            try await ama.send("one step too many")
            try await ama.expect("a recipe may have \(RecipeCommands.maxSteps) steps; end them with .", timeout: 120)
            try await ama.send(".")
            try await ama.expect("A photo?")
            try await ama.send("-")
            try await ama.expect("Cuisine and diet tags")

            let words = (0..<RecipeCommands.maxTags).map { "tag" + String(Character(UnicodeScalar(UInt8(97 + $0)))) }
            let longTag = String(repeating: "z", count: RecipeCommands.maxTag)
            try await ama.send((words + ["extra"]).joined(separator: " "))
            try await ama.expect("tags are up to \(RecipeCommands.maxTags) words")
            try await ama.send((words.dropLast() + [longTag + "z"]).joined(separator: " "))
            try await ama.expect("tags are up to \(RecipeCommands.maxTags) words")
            try await ama.send((words.dropLast() + [longTag]).joined(separator: " "))
            try await ama.expect(
                "“\(title)” is ready (\(RecipeCommands.maxIngredients) ingredients, \(RecipeCommands.maxSteps) steps)")
            try await ama.send("!recipe post")
            try await ama.expect("Recipe #1 “\(title)” is posted")
            let shown = try await Self.replies(ama, "!recipe 1")
            #expect(shown.contains { $0.contains(longTag) && $0.contains("#1 \(title)") })
            #expect(Self.count(shown, containing: "• ") == RecipeCommands.maxIngredients)
            #expect(shown.contains { $0.hasSuffix("\(RecipeCommands.maxSteps). step \(RecipeCommands.maxSteps)") })
            #expect(!shown.contains { $0.contains("too many") })
        }
    }

    /// Comment length, and the comments page.
    @Test func commentsAtTheirLengthAndPageLimits() async throws {
        try await withServer { server in
            let cook = try await TestClient.user(server, "cook")
            let id = try await RecipeTests.post(cook, title: "Soup", ingredients: ["water"], steps: ["Heat."])
            let text = "C" + String(repeating: "c", count: CommentCommands.maxCommentLength - 1)
            try await cook.send("!comment recipe \(id) \(text)c")
            try await cook.expect(
                "a comment may have \(CommentCommands.maxCommentLength) characters; yours has "
                    + "\(CommentCommands.maxCommentLength + 1)"
            )
            try await cook.send("!comment recipe \(id) \(text)")
            try await cook.expect("Comment #1 added to recipe #\(id).")

            let store = server.server.store
            let me = try await Self.accountID(server, "cook")
            for i in 2...StoreLimits.commentPageSize {
                _ = try await store.addComment(kind: "recipe", targetID: Int64(id), accountID: me, text: "note-\(i)")
            }
            try await Self.crossPageSize(
                cook, "!comments recipe \(id)", next: "!comments recipe \(id) 2", item: "cook: ",
                size: StoreLimits.commentPageSize, last: "note-last"
            ) { _ = try await store.addComment(kind: "recipe", targetID: Int64(id), accountID: me, text: "note-last") }
        }
    }

    /// Family name, open invites, post length and the family feed's page.
    @Test func familyLimitsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let fay = try await TestClient.user(server, "fay")
            let name = "F" + String(repeating: "f", count: FamilyCommands.maxName - 1)
            try await fay.send("!tree new \(name)f")
            try await fay.expect("a family name has 2 to \(FamilyCommands.maxName) characters")
            try await fay.send("!tree new \(name)")
            try await fay.expect("You founded \(name).")
            try await fay.expect("Invite code for \(name): ")  // the first open invite
            for _ in 2...FamilyCommands.maxOpenInvites {
                try await fay.send("!tree invite")
                try await fay.expect("Invite code for \(name): ")
            }
            try await fay.send("!tree invite")
            try await fay.expect("\(name) has \(FamilyCommands.maxOpenInvites) open invites; !tree revoke some first")

            let post = "P" + String(repeating: "p", count: FamilyFeedCommands.maxPost - 1)
            try await fay.send("!post \(post)p")
            try await fay.expect("a post may have \(FamilyFeedCommands.maxPost) characters")
            try await fay.send("!post \(post)")
            try await fay.expect("Posted #1 to \(name)'s feed.")

            let store = server.server.store
            let me = try await Self.accountID(server, "fay")
            let family = try #require(try await store.families(of: me).first?.id)
            func add(_ text: String) async throws {
                _ = try await store.addFamilyPost(
                    FamilyPost(
                        familyId: family, accountId: me, kind: "text", text: text, imageId: nil, eventDate: nil,
                        createdAt: Date()))
            }
            for i in 2...StoreLimits.familyPostPageSize { try await add("news-\(i)") }
            try await Self.crossPageSize(
                fay, "!famfeed", next: "!famfeed 2", item: " fay: ", size: StoreLimits.familyPostPageSize,
                last: "#1 fay: Ppp"
            ) { try await add("news-last") }
        }
    }

    @Test func recipeSearchTermsAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let kim = try await TestClient.user(server, "kim")
            let words = (0..<RecipeSearchQuery.maxTerms).map {
                "word" + String(Character(UnicodeScalar(UInt8(97 + $0))))
            }
            try await kim.send("!search " + words.joined(separator: " "))
            try await kim.expect("No recipe matches")
            try await kim.send("!search " + words.joined(separator: " ") + " wordextra")
            try await kim.expect("that is more than \(RecipeSearchQuery.maxTerms) words; search with fewer")
        }
    }

    @Test func registrationFieldsAtTheirLimitsAndOnePast() async throws {
        try await withServer { server in
            let nc = try await TestClient.plain(server)
            let domain = "@example.org"
            let email = String(repeating: "e", count: AccountService.maxEmailLength - domain.count) + domain
            let phone = String(repeating: "5", count: AccountService.maxPhoneLength)
            let password = String(repeating: "p", count: PasswordHash.minPasswordLength)
            try await nc.send("!register emma \(password) e\(email)")
            try await nc.expect("\"e\(email)\" doesn't look like an email address")
            try await nc.send("!register emma \(password) \(phone)5")
            try await nc.expect("\"\(phone)5\" is neither an email address nor a phone number")
            try await nc.send("!register emma \(password.dropLast())")
            try await nc.expect("passwords need at least \(PasswordHash.minPasswordLength) characters")
            #expect(try await server.server.store.account(nameKey: "emma") == nil)
            try await nc.send("!register emma \(password) \(email) \(phone)")
            try await nc.expect("Welcome to Hearth, emma!")
            let account = try #require(try await server.server.store.account(nameKey: "emma"))
            #expect(account.email == email && account.phone == phone)
        }
    }

    /// Runs the `hearth` executable to its end.
    static func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let finished = try await Programs.hearth(arguments)
        return (finished.status, finished.output)
    }

    /// maxPasswordBytes can't be reached through a chat line (the line limit comes first), so
    /// the account is made with `hearth user add`, and its owner logs in over SASL.
    @Test func passwordBytesAtTheLimitAndOnePast() async throws {
        try await withServer { server in
            let password = String(repeating: "p", count: PasswordHash.maxPasswordBytes)
            let over = try await Self.hearth(["user", "add", "pat", password + "p", "--data-dir", server.dataDirectory])
            #expect(
                over.status != 0
                    && over.output.contains("passwords can be at most \(PasswordHash.maxPasswordBytes) bytes"),
                "\(over.output)")
            #expect(try await server.server.store.account(nameKey: "pat") == nil)
            let made = try await Self.hearth(["user", "add", "pat", password, "--data-dir", server.dataDirectory])
            #expect(made.status == 0 && made.output.contains("created account pat"), "\(made.output)")
            let c = try await Self.saslClient(server, "pat")
            try await Self.authenticate(c, IRCProtocolTests.plainAuth("pat", password))
            try await c.expectNumeric("903")
        }
    }
}
