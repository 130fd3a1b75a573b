import Testing

@testable import HearthProtocol

@Suite struct ParserTests {
    @Test func parsesSourceCommandAndParams() throws {
        let m = try IRCMessage.parse(":nick!user@host PRIVMSG #chan :hello there")
        #expect(m.source == "nick!user@host")
        #expect(m.command == "PRIVMSG")
        #expect(m.params == ["#chan", "hello there"])
    }

    @Test func parsesTagsWithEscapes() throws {
        let m = try IRCMessage.parse("@time=2026-11-22T10:00:00Z;msgid=a\\sb\\:c;+draft/x PRIVMSG a b")
        #expect(m.tag("time") == "2026-11-22T10:00:00Z")
        #expect(m.tag("msgid") == "a b;c")
        #expect(m.tag("+draft/x") == "")
        #expect(m.params == ["a", "b"])
    }

    @Test func commandIsUppercasedAndSpacesCollapse() throws {
        let m = try IRCMessage.parse("privmsg   a    :x  y ")
        #expect(m.command == "PRIVMSG")
        #expect(m.params == ["a", "x  y "])
    }

    @Test func emptyTrailingIsKept() throws {
        #expect(try IRCMessage.parse("TOPIC #a :").params == ["#a", ""])
    }

    @Test func numericCommands() throws {
        #expect(try IRCMessage.parse(":srv 001 me :hi").command == "001")
        #expect(throws: IRCParseError.invalidCommand) { try IRCMessage.parse("0x1 a") }
    }

    @Test func bodyLimitIs512BytesWithCRLF() throws {
        let fits = "PRIVMSG #a :" + String(repeating: "x", count: 510 - 12)
        #expect(fits.utf8.count == 510)
        #expect(throws: Never.self) { try IRCMessage.parse(fits) }
        #expect(throws: IRCParseError.bodyTooLong) { try IRCMessage.parse(fits + "x") }
    }

    /// IRCv3 message-tags: a client sends at most 4094 bytes of tag data.
    @Test func clientTagDataIsAtMost4094Bytes() throws {
        let tags = "@" + String(repeating: "k", count: IRCLimits.maxClientTagBytes) + " "
        #expect(IRCLimits.maxClientTagBytes == 4094)
        #expect(throws: Never.self) { try IRCMessage.parse(tags + "PING x") }
        let over = "@" + String(repeating: "k", count: IRCLimits.maxClientTagBytes + 1) + " PING x"
        #expect(throws: IRCParseError.tagsTooLong) { try IRCMessage.parse(over) }
    }

    @Test func rejectsNULAndInvalidUTF8() {
        #expect(throws: IRCParseError.containsNUL) { try IRCMessage.parse(Array("PING a".utf8) + [0]) }
        #expect(throws: IRCParseError.invalidUTF8) { try IRCMessage.parse(Array("PING ".utf8) + [0xff]) }
    }

    @Test func tooManyParams() {
        let line = "CMD " + (1...16).map(String.init).joined(separator: " ")
        #expect(throws: IRCParseError.tooManyParams) { try IRCMessage.parse(line) }
        let ok = "CMD " + (1...15).map(String.init).joined(separator: " ")
        #expect(throws: Never.self) { try IRCMessage.parse(ok) }
    }

    @Test func emptyAndMissingCommand() {
        #expect(throws: IRCParseError.empty) { try IRCMessage.parse("") }
        #expect(throws: IRCParseError.missingCommand) { try IRCMessage.parse(":source") }
    }
}

@Suite struct SerializerTests {
    @Test func trailingGetsAColonOnlyWhenNeeded() {
        #expect(IRCMessage(source: "s", "PRIVMSG", "#a", "hi there").serialized() == ":s PRIVMSG #a :hi there")
        #expect(IRCMessage("PRIVMSG", "#a", "hi").serialized() == "PRIVMSG #a :hi")
        #expect(IRCMessage("JOIN", "#a").serialized() == "JOIN #a")
        #expect(IRCMessage("NICK", "bob").serialized() == "NICK bob")
        #expect(IRCMessage("PING", "srv").serialized() == "PING :srv")
        #expect(IRCMessage("TOPIC", "#a", "").serialized() == "TOPIC #a :")
        #expect(IRCMessage("PRIVMSG", "#a", ":)").serialized() == "PRIVMSG #a ::)")
    }

    @Test func roundTrip() throws {
        let m = IRCMessage(
            tags: [IRCTag("msgid", "x y;z")], source: "a!b@c", command: "PRIVMSG", params: ["#d", "e f"])
        #expect(try IRCMessage.parse(m.serialized()) == m)
    }

    @Test func longBodiesAreCutAtACharacterBoundary() {
        let text = String(repeating: "é", count: 400)
        let line = IRCMessage(source: "nick!user@host", "PRIVMSG", "#chan", text).serialized()
        #expect(line.utf8.count <= 510)
        #expect(line.utf8.count >= 508)
        #expect(line.hasSuffix("é"))
    }
}

@Suite struct NameTests {
    @Test func nicks() {
        #expect(IRCNames.isValidNick("alice"))
        #expect(IRCNames.isValidNick("[bot]_2-x"))
        #expect(!IRCNames.isValidNick("9lives"))
        #expect(!IRCNames.isValidNick("has space"))
        #expect(!IRCNames.isValidNick("héllo"))
        #expect(!IRCNames.isValidNick(""))
        #expect(IRCNames.isValidNick(String(repeating: "a", count: IRCLimits.nickLength)))
        #expect(!IRCNames.isValidNick(String(repeating: "a", count: IRCLimits.nickLength + 1)))
    }

    @Test func channels() {
        #expect(IRCNames.isValidChannel("#lobby"))
        #expect(IRCNames.isValidChannel("#café"))
        #expect(!IRCNames.isValidChannel("lobby"))
        #expect(!IRCNames.isValidChannel("#"))
        #expect(!IRCNames.isValidChannel("#a,b"))
        #expect(!IRCNames.isValidChannel("#a b"))
        #expect(!IRCNames.isValidChannel("#a\u{7}"))
        #expect(IRCNames.isValidChannel("#" + String(repeating: "c", count: IRCLimits.channelLength - 1)))
        #expect(!IRCNames.isValidChannel("#" + String(repeating: "c", count: IRCLimits.channelLength)))
    }

    @Test func asciiCasemapping() {
        #expect(IRCNames.fold("AliCE[]") == "alice[]")
        #expect(IRCNames.fold("ÉCOLE") == "École")  // only ASCII letters fold
    }

    @Test func globMasks() {
        #expect(IRCNames.globMatch("bob!*@*", "Bob!~bob@127.0.0.1"))
        #expect(IRCNames.globMatch("*!*@127.*", "x!y@127.0.0.1"))
        #expect(!IRCNames.globMatch("bob!*@*", "bobby!~b@h"))
        #expect(IRCNames.globMatch("b?b!*@*", "bib!u@h"))
        #expect(IRCNames.normalizeMask("bob") == "bob!*@*")
        #expect(IRCNames.normalizeMask("*@host") == "*!*@host")
        #expect(IRCNames.normalizeMask("nick!user") == "nick!user@*")
    }

    @Test func isupportLinesHaveAtMost13Tokens() {
        let lines = ISupport.lines(ISupport.tokens(network: "Hearth"))
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.count <= ISupport.tokensPerLine })
        #expect(lines.flatMap { $0 }.contains("UTF8ONLY"))
    }
}

/// Inputs the irc-line fuzzer found (Fuzz/crashes/irc-line), spelled out.
@Suite struct FuzzFoundTests {
    @Test func anEscapedCRLFInATagValueIsRelayedEscaped() throws {
        let message = try IRCMessage.parse("@+draft/reply=x\\r\\nQUIT PRIVMSG #c :hi")
        #expect(message.tag("+draft/reply") == "x\r\nQUIT")
        #expect(message.serialized() == "@+draft/reply=x\\r\\nQUIT PRIVMSG #c :hi")
    }

    @Test func aLineFeedInsideALineIsRefused() {
        #expect(throws: IRCParseError.containsCR) { try IRCMessage.parse("PRIVMSG #c :a\nQUIT") }
    }

    @Test func tagsSplitOnBytesNotCharacters() throws {
        // "=" then U+073A (a combining mark) is one Character.
        let message = try IRCMessage.parse("@t=\u{073A}c;=v PING x")
        #expect(message.tags == [IRCTag("t", "\u{073A}c")])
        #expect(try IRCMessage.parse(message.serialized()) == message)
    }
}
