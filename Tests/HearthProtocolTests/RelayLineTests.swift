import Testing

@testable import HearthProtocol

@Suite struct RelayLineTests {
    func scan(_ bytes: [UInt8]) -> RelayLine? {
        bytes.withUnsafeBytes { RelayLine.scan($0) }
    }

    func scan(_ line: String) -> RelayLine? { scan(Array(line.utf8)) }

    func parts(_ line: String) -> (String, String, String)? {
        guard let relay = scan(line) else { return nil }
        let bytes = Array(line.utf8)
        return (
            relay.commandName, String(decoding: bytes[relay.target], as: UTF8.self),
            String(decoding: bytes[relay.text], as: UTF8.self)
        )
    }

    @Test func readsTheCommonLines() throws {
        #expect(try #require(parts("PRIVMSG bob :hello there")) == ("PRIVMSG", "bob", "hello there"))
        #expect(try #require(parts("NOTICE #chan :  spaced  ")) == ("NOTICE", "#chan", "  spaced  "))
        #expect(try #require(parts("PRIVMSG bob word")) == ("PRIVMSG", "bob", "word"))
        #expect(try #require(parts("PRIVMSG bob :héllo ✓")) == ("PRIVMSG", "bob", "héllo ✓"))
        #expect(try #require(parts("PRIVMSG bob ::colon")) == ("PRIVMSG", "bob", ":colon"))
    }

    /// Everything with more to it than a relay goes to the full parser.
    @Test func leavesEverythingElseToTheParser() {
        let others = [
            "@+typing=active PRIVMSG bob :hi", ":me!u@h PRIVMSG bob :hi", "privmsg bob :hi", "PRIVMSG a,b :hi",
            "PRIVMSG @#chan :hi", "PRIVMSG +#chan :hi", "PRIVMSG bob", "PRIVMSG bob ", "PRIVMSG bob :",
            "PRIVMSG  bob :hi", "PRIVMSG bob  :hi", "PRIVMSG bob two words", "PRIVMSG bob word ", "TAGMSG bob",
            "PRIVMSG :bob hi", "PRIVMSGX bob :hi", "NOTICE", "PRIVMSG bob\t:hi", "PRIVMSG #ça :hi", "JOIN #a",
        ]
        for line in others { #expect(scan(line) == nil, "\(line)") }
        #expect(scan(Array("PRIVMSG bob :a".utf8) + [0]) == nil)
        #expect(scan(Array("PRIVMSG bob :a".utf8) + [13, 65]) == nil)
        #expect(scan(Array("PRIVMSG bob :a".utf8) + [0xff]) == nil)
        #expect(scan(Array("PRIVMSG bob :a".utf8) + [0xc3]) == nil)
        #expect(scan(Array("PRIVMSG bob :a".utf8) + [0xed, 0xa0, 0x80]) == nil)  // a surrogate
    }

    /// The same body limit as the parser: 512 bytes with the CR LF the client sent.
    @Test func bodyLimitIsTheParsers() {
        let fits = "PRIVMSG #a :" + String(repeating: "x", count: IRCLimits.maxBodyBytes - 2 - 12)
        #expect(fits.utf8.count == IRCLimits.maxBodyBytes - 2)
        #expect(scan(fits) != nil)
        #expect(scan(fits + "x") == nil)
    }

    /// Whatever it reads, the full parser reads the same way: generated lines from the pieces
    /// that matter (spaces, colons, commas, tags, case, tabs, bytes the parser refuses, lengths
    /// past the limit).
    @Test func agreesWithTheParser() {
        let pieces: [[UInt8]] = [
            Array("PRIVMSG".utf8), Array("NOTICE".utf8), Array("privmsg".utf8), Array("TAGMSG".utf8), [32], [32, 32],
            [58], [44], Array("bob".utf8), Array("#c".utf8), [64], [43], Array("hi".utf8), [0xc3, 0xa9], [0xff],
            [0], [13], [33], Array("@a=b".utf8), [9], [10], Array(repeating: 120, count: 300),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            var line: [UInt8] = Bool.random(using: &generator) ? Array("PRIVMSG ".utf8) : []
            for _ in 0..<Int.random(in: 1...7, using: &generator) {
                line += pieces.randomElement(using: &generator)!
            }
            guard let relay = scan(line) else { continue }
            guard let message = try? IRCMessage.parse(line) else {
                Issue.record("scanned but the parser refuses: \(line)")
                continue
            }
            #expect(message.command == relay.commandName, "\(line)")
            #expect(message.tags.isEmpty && message.source == nil, "\(line)")
            #expect(message.params.count == 2, "\(line)")
            #expect(message.params.first == String(decoding: line[relay.target], as: UTF8.self), "\(line)")
            #expect(message.params.last == String(decoding: line[relay.text], as: UTF8.self), "\(line)")
        }
    }
}
