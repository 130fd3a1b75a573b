import HearthProtocol
import Testing

@Suite struct ModeChangeTests {
    func parse(_ modes: String, _ params: String...) -> [ModeChange.Step] {
        ModeChange.parse(modes, params)
    }

    @Test func flagsTakeNoParameterAndFollowTheLastSign() {
        #expect(
            parse("+CMRimnst", "unused") == ModeChange.Flag.allCases.map { .change(.flag($0, on: true)) })
        #expect(parse("-n+t") == [.change(.flag(.noOutside, on: false)), .change(.flag(.topicLock, on: true))])
        // A string starts by adding, and a sign alone changes nothing.
        #expect(parse("m") == [.change(.flag(.moderated, on: true))])
        #expect(parse("+-+").isEmpty)
    }

    @Test func aKeyIsNeededToSetOneAndTakenIfGivenToClearIt() {
        #expect(parse("+k") == [.problem(.missingParameter("k", adding: true))])
        #expect(parse("+k", "secret") == [.change(.setKey("secret"))])
        #expect(parse("+k", "") == [.problem(.invalidKey(""))])
        #expect(parse("+k", "two words") == [.problem(.invalidKey("two words"))])
        let long = String(repeating: "k", count: IRCLimits.keyLength + 8)
        #expect(parse("+k", long) == [.change(.setKey(String(long.prefix(IRCLimits.keyLength))))])
        // -k needs no key, and takes one that is there (RFC 2812), so "nick" goes to -o.
        #expect(parse("-k") == [.change(.clearKey)])
        #expect(
            parse("-ko", "oldkey", "nick") == [
                .change(.clearKey), .change(.member(.op, nick: "nick", adding: false)),
            ])
    }

    @Test func aLimitIsAPositiveNumberAndRemovingItTakesNoParameter() {
        #expect(parse("+l", "10") == [.change(.setLimit(10))])
        #expect(parse("+l") == [.problem(.missingParameter("l", adding: true))])
        for bad in ["0", "-3", "ten", "", "99999999999999999999"] {
            #expect(parse("+l", bad) == [.problem(.invalidLimit(bad))], "\(bad)")
        }
        #expect(parse("-lv", "ann") == [.change(.clearLimit), .change(.member(.voice, nick: "ann", adding: false))])
    }

    @Test func listAndMemberModesTakeAMaskOrANick() {
        #expect(
            parse("+b-eI", "*!*@bad", "ann!*@*", "m:bob") == [
                .change(.list(.ban, mask: "*!*@bad", adding: true)),
                .change(.list(.exception, mask: "ann!*@*", adding: false)),
                .change(.list(.inviteException, mask: "m:bob", adding: false)),
            ])
        #expect(
            parse("+o-v", "ann", "bob") == [
                .change(.member(.op, nick: "ann", adding: true)),
                .change(.member(.voice, nick: "bob", adding: false)),
            ])
        #expect(parse("-o") == [.problem(.missingParameter("o", adding: false))])
        #expect(parse("+nb") == [.change(.flag(.noOutside, on: true)), .problem(.missingParameter("b", adding: true))])
    }

    /// Unknown letters are reported one by one (ERR_UNKNOWNMODE), and the rest still applies.
    @Test func unknownModesAreReportedNotDropped() {
        #expect(
            parse("+xhn-é", "ann") == [
                .problem(.unknown("x")), .problem(.unknown("h")), .change(.flag(.noOutside, on: true)),
                .problem(.unknown("é")),
            ])
    }

    @Test func atMostModesListAndMemberChangesAreTaken() {
        let limit = IRCLimits.modesPerCommand
        #expect(ISupport.tokens(network: "n").contains("MODES=\(limit)"))
        let nicks = (0...limit).map { "n\($0)" }
        let steps = ModeChange.parse("+" + String(repeating: "o", count: limit + 1), nicks)
        let taken: [ModeChange.Step] = nicks.prefix(limit).map { .change(.member(.op, nick: $0, adding: true)) }
        #expect(Array(steps.prefix(limit)) == taken)
        #expect(steps.last == .problem(.overLimit(.member(.op, nick: nicks[limit], adding: true))))
        // Keys, limits and flags do not count.
        let masks = (0..<limit).map { "m\($0)!*@*" }
        let mixed = ModeChange.parse("+kl" + String(repeating: "b", count: limit) + "imnst", ["key", "5"] + masks)
        #expect(mixed.allSatisfy { if case .change = $0 { true } else { false } })
    }

    @Test func aRequestShowsListsOrChanges() {
        #expect(ChannelModeRequest([]) == .show)
        for asked in ["b", "+b", "++b", "b+"] { #expect(ChannelModeRequest([asked]) == .list(.ban), "\(asked)") }
        #expect(ChannelModeRequest(["e"]) == .list(.exception))
        #expect(ChannelModeRequest(["I"]) == .list(.inviteException))
        #expect(ChannelModeRequest(["-b"]) == .change([.problem(.missingParameter("b", adding: false))]))
        #expect(ChannelModeRequest(["+b", "x!*@*"]) == .change([.change(.list(.ban, mask: "x!*@*", adding: true))]))
        #expect(ChannelModeRequest(["+t"]) == .change([.change(.flag(.topicLock, on: true))]))
    }

    @Test func serialisesSignsOncePerRunWithParametersInOrder() {
        #expect(
            ModeChange.serialize([.setKey("key"), .setLimit(10), .member(.op, nick: "nick", adding: false)]) == [
                "+kl-o", "key", "10", "nick",
            ])
        #expect(ModeChange.serialize([.clearKey, .clearLimit, .flag(.secret, on: true)]) == ["-kl+s", "*"])
        #expect(ModeChange.serialize([]) == [])
    }

    /// The parser knows exactly the modes RPL_ISUPPORT advertises, each of its CHANMODES type.
    @Test func matchesTheAdvertisedModes() throws {
        let tokens = ISupport.tokens(network: "n")
        let chanmodes = try #require(tokens.first { $0.hasPrefix("CHANMODES=") }).dropFirst("CHANMODES=".count)
        let types = chanmodes.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(types == [String(ModeChange.ListMode.allCases.map(\.rawValue)), "k", "l", "CMRimnst"])
        #expect(Set(types[3]) == Set(ModeChange.Flag.allCases.map(\.rawValue)))
        #expect(tokens.contains("PREFIX=(\(String(ModeChange.MemberMode.allCases.map(\.rawValue))))@+"))
        // Type B and C take a parameter to set (and B one to clear): a letter alone is missing it.
        #expect(parse(types[1]) == [.problem(.missingParameter("k", adding: true))])
        #expect(parse(types[2]) == [.problem(.missingParameter("l", adding: true))])
    }

    /// What RPL_CHANNELMODEIS shows and nodes announce, read back only when it is just that.
    @Test func channelModesSerialiseAndReadBack() {
        let modes = ChannelModes(flags: [.topicLock, .noOutside], key: "sesame", limit: 5)
        #expect(modes.serialized(showKey: true) == ["+ntkl", "sesame", "5"])
        #expect(modes.serialized(showKey: false) == ["+ntkl", "*", "5"])
        #expect(ChannelModes().serialized(showKey: true) == ["+"])
        #expect(ChannelModes(["+ntkl", "sesame", "5"]) == modes)
        #expect(ChannelModes(["+"]) == ChannelModes())
        #expect(ChannelModes([]) == ChannelModes())
        for other in [["-n"], ["+o", "ann"], ["+b", "x!*@*"], ["+x"], ["+l", "0"], ["+k"], ["+nk", ""]] {
            #expect(ChannelModes(other) == nil, "\(other)")
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let flags = Set(ModeChange.Flag.allCases.filter { _ in Bool.random(using: &random) })
            let key = Bool.random(using: &random) ? "k\(Int.random(in: 0...99, using: &random))" : nil
            let limit = Bool.random(using: &random) ? Int.random(in: 1...Int.max, using: &random) : nil
            let modes = ChannelModes(flags: flags, key: key, limit: limit)
            #expect(ChannelModes(modes.serialized(showKey: true)) == modes)
        }
    }

    /// A registered channel's record keeps its flags as sorted letters: rows written before
    /// `ChannelModes` held them ("nt", "imnst", "") read back the same, and write back unchanged.
    @Test func channelModesReadAndWriteARegisteredChannelsStoredFlags() {
        for letters in ["", "nt", "imnst", "ist", "m"] {
            let modes = ChannelModes(flagLetters: letters, key: "sesame", limit: 4)
            #expect(Set(modes.flags.map(\.rawValue)) == Set(letters), "\(letters)")
            #expect(modes.flagLetters == letters)
            #expect(modes.key == "sesame" && modes.limit == 4)
        }
        #expect(ChannelModes(flags: [.topicLock, .inviteOnly, .noOutside]).flagLetters == "int")
        let skipped = ChannelModes(flagLetters: "nxt", key: nil, limit: nil)
        #expect(skipped == ChannelModes(flags: [.noOutside, .topicLock]))
    }

    @Test func userModesAreFlagsAndUnknownLettersAreReported() {
        #expect(
            UserModeChange.parse("+iw-oB+x") == [
                .flag(.invisible, on: true), .flag(.wallops, on: true), .flag(.oper, on: false),
                .flag(.bot, on: false), .unknown("x"),
            ])
        #expect(UserModeChange.parse("") == [])
        #expect(UserModeChange.serialize([(.invisible, true), (.wallops, true), (.oper, false)]) == "+iw-o")
        #expect(UserModeChange.serialize([]) == "")
    }

    /// Random mode strings and parameters never crash the parsers (channel and user), every
    /// letter is a change or a problem, and what is taken serialises to a string that parses to
    /// the same changes (also through an IRC line when its parameters can travel in one).
    @Test func fuzzedModeStringsRoundTrip() throws {
        var random = SplitMix64(seed: 0x4845_4152_5448)
        let letters: [Character] = Array("+-+-imnstklbeIovhqxyzé🙂 ") + ["e\u{301}"]
        let pool = [
            "", "a", "nick", "5", "0", "-1", "+7", "two words", String(repeating: "k", count: 40), "*!*@*", ":x",
            "99999999999999999999", "m:ann", "#chan",
        ]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &random)
            let modes = String((0..<length).map { _ in letters.randomElement(using: &random)! })
            let params = (0..<Int.random(in: 0...8, using: &random)).map { _ in pool.randomElement(using: &random)! }
            _ = ChannelModeRequest([modes] + params)
            let steps = ModeChange.parse(modes, params)
            let letterCount = modes.filter { $0 != "+" && $0 != "-" }.count
            #expect(steps.count == letterCount, "\(modes) \(params)")
            let userModes = UserModeChange.parse(modes)
            #expect(userModes.count == letterCount)
            let flags = userModes.compactMap { if case .flag(let flag, let on) = $0 { (flag, on) } else { nil } }
            let userAgain = UserModeChange.parse(UserModeChange.serialize(flags))
            #expect(userAgain == flags.map { .flag($0.0, on: $0.1) })
            let changes = steps.compactMap { if case .change(let change) = $0 { change } else { nil } }
            let wire = ModeChange.serialize(changes)
            #expect(wire.isEmpty == changes.isEmpty)
            guard let first = wire.first else { continue }
            let again = ModeChange.parse(first, Array(wire.dropFirst()))
            #expect(again == changes.map { .change($0) }, "\(modes) \(params)")

            let middles = [first] + wire.dropFirst().dropLast()
            guard middles.allSatisfy({ !$0.isEmpty && !$0.contains(" ") && !$0.hasPrefix(":") }) else { continue }
            let line = IRCMessage(command: "MODE", params: ["#c"] + wire).serialized()
            let parsed = try IRCMessage.parse(line)
            #expect(parsed.params == ["#c"] + wire, "\(line)")
        }
    }
}

/// A small seeded generator, so a fuzz failure is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
