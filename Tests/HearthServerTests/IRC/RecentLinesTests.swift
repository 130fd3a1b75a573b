import Testing

@testable import HearthServer

/// The lines plain mode quotes and picks from (`/react N`, `/reply NICK`): a channel's last
/// `RecentLines.capacity`.
@Suite struct RecentLinesTests {
    @Test func theLastCapacityLinesArePickedByNumberNickOrMsgid() {
        var recent = RecentLines()
        let count = RecentLines.capacity + 1
        for n in 1...count { recent.append(RecentLine(msgid: "m\(n)", nick: n % 2 == 0 ? "Bob" : "ann", text: "\(n)")) }
        #expect(recent.pick("1")?.msgid == "m\(count)")
        #expect(recent.pick("2")?.msgid == "m\(count - 1)")
        #expect(recent.pick("\(RecentLines.capacity)")?.msgid == "m2")
        #expect(recent.pick("\(RecentLines.capacity + 1)") == nil, "one past the capacity is forgotten")
        #expect(recent.line("m1") == nil && recent.line("m2") != nil)
        #expect(recent.pick("0") == nil)
        #expect(recent.pick("bob")?.msgid == "m\(count - 1)", "a nick, whatever its case: its latest line")
        #expect(recent.pick("m7")?.text == "7")
        #expect(recent.pick("nobody") == nil)
        recent.edit("m7", text: "seven")
        #expect(recent.line("m7")?.text == "seven")
    }
}
