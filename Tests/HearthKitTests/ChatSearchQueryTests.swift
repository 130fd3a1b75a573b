import HearthStore
import Testing

@testable import HearthKit

/// The limits of a chat search as people type it.
@Suite struct ChatSearchQueryTests {
    @Test func aPrefixNeedsEnoughLetters() throws {
        let short = String(repeating: "a", count: ChatSearchQuery.minPrefixLetters - 1) + "*"
        #expect(throws: BotError.self) { try ChatSearchQuery.parse(short) }
        #expect(throws: BotError.self) { try ChatSearchQuery.parse("cake \"ab\"*") }
        let enough = String(repeating: "a", count: ChatSearchQuery.minPrefixLetters) + "*"
        let words = try ChatSearchQuery.parse(enough)
        #expect(words.parts == [.term(String(enough.dropLast()), prefix: true)])
        #expect(try ChatSearchQuery.parse("ab").parts == [.term("ab", prefix: false)])
    }
}
