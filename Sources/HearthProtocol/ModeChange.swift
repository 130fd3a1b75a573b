/// One change to a channel's modes, of the kinds Hearth advertises (`CHANMODES=beI,k,l,CMRimnst`,
/// `PREFIX=(ov)@+`). Parsing and serialising are pure (as Ergo's `ParseChannelModeChanges`):
/// the server checks rights and applies each change to its channel.
public enum ModeChange: Sendable, Hashable {
    /// A mode without a parameter (CHANMODES type D).
    case flag(Flag, on: Bool)
    /// +k (type B): the key, cut to `IRCLimits.keyLength`.
    case setKey(String)
    /// -k: takes a parameter when one is there (RFC 2812), ignored; it is shown as `*`.
    case clearKey
    /// +l (type C): a positive number. -l takes no parameter.
    case setLimit(Int)
    case clearLimit
    /// b, e and I (type A), with a mask as given (the server normalises it).
    case list(ListMode, mask: String, adding: Bool)
    /// o and v (PREFIX), with a nick.
    case member(MemberMode, nick: String, adding: Bool)

    public enum Flag: Character, Sendable, CaseIterable {
        /// No CTCP but ACTION (`/me`) in the channel.
        case noCTCP = "C"
        /// Only users logged in to an account may speak.
        case accountsSpeak = "M"
        /// Only users logged in to an account may join.
        case accountsJoin = "R"
        case inviteOnly = "i"
        case moderated = "m"
        case noOutside = "n"
        case secret = "s"
        case topicLock = "t"
    }

    public enum ListMode: Character, Sendable, CaseIterable {
        case ban = "b"
        case exception = "e"
        case inviteException = "I"
    }

    public enum MemberMode: Character, Sendable, CaseIterable {
        case op = "o"
        case voice = "v"
    }

    /// One step of a mode string, in the order given: a change, or a mode not taken.
    public enum Step: Sendable, Hashable {
        case change(ModeChange)
        case problem(Problem)
    }

    /// Why a mode of the string was not taken. The server answers each as it always has:
    /// `unknown` ERR_UNKNOWNMODE (472); `missingParameter` ERR_NEEDMOREPARAMS (461) for k, l, o
    /// and v, nothing for b, e and I; `invalidKey` and `invalidLimit` ERR_INVALIDMODEPARAM (696);
    /// `overLimit` nothing (the change is ignored).
    public enum Problem: Sendable, Hashable {
        case unknown(Character)
        case missingParameter(Character, adding: Bool)
        /// Empty, or with a space.
        case invalidKey(String)
        /// Not a positive number.
        case invalidLimit(String)
        /// A list or member change past the `MODES=` limit of one command.
        case overLimit(ModeChange)
    }

    public var adding: Bool {
        switch self {
        case .flag(_, let on): on
        case .setKey, .setLimit: true
        case .clearKey, .clearLimit: false
        case .list(_, _, let adding), .member(_, _, let adding): adding
        }
    }

    public var letter: Character {
        switch self {
        case .flag(let flag, _): flag.rawValue
        case .setKey, .clearKey: "k"
        case .setLimit, .clearLimit: "l"
        case .list(let mode, _, _): mode.rawValue
        case .member(let mode, _, _): mode.rawValue
        }
    }

    /// The parameter as MODE shows it (`-k` shows `*`).
    public var parameter: String? {
        switch self {
        case .flag, .clearLimit: nil
        case .setKey(let key): key
        case .clearKey: "*"
        case .setLimit(let limit): String(limit)
        case .list(_, let mask, _): mask
        case .member(_, let nick, _): nick
        }
    }
}

/// What `MODE #channel …` asks for, its arguments after the channel's name.
public enum ChannelModeRequest: Sendable, Hashable {
    /// No mode string: the channel's modes (RPL_CHANNELMODEIS).
    case show
    /// A list mode alone (`b`, `+b`), without a mask: the list. No privilege is needed.
    case list(ModeChange.ListMode)
    case change([ModeChange.Step])

    public init(_ args: [String], limit: Int = IRCLimits.modesPerCommand) {
        guard let modes = args.first else {
            self = .show
            return
        }
        let params = args.dropFirst()
        // Pluses on either side are no sign of a change ("+b", "b+").
        let asked = modes.unicodeScalars.drop { $0 == "+" }.reversed().drop { $0 == "+" }
        if params.isEmpty, asked.count == 1, let mode = ModeChange.ListMode(rawValue: Character(asked.first!)) {
            self = .list(mode)
        } else {
            self = .change(ModeChange.parse(modes, params, limit: limit))
        }
    }
}

extension ModeChange {
    /// The steps of a mode string (`+kl-o`) and its parameters, in order. Each mode takes the
    /// next parameter it needs; one that is missing or bad is a problem and the rest go on.
    /// The string starts by adding. At most `limit` list and member changes are taken.
    public static func parse(
        _ modes: String, _ params: some Collection<String>, limit: Int = IRCLimits.modesPerCommand
    ) -> [Step] {
        var params = ArraySlice(params)
        var adding = true
        var counted = 0
        var steps: [Step] = []
        for letter in modes {
            switch letter {
            case "+": adding = true
            case "-": adding = false
            default:
                let step = parseOne(letter, adding: adding, params: &params)
                guard case .change(let change) = step, change.countsForLimit else {
                    steps.append(step)
                    continue
                }
                counted += 1
                steps.append(counted > limit ? .problem(.overLimit(change)) : step)
            }
        }
        return steps
    }

    private static func parseOne(_ letter: Character, adding: Bool, params: inout ArraySlice<String>) -> Step {
        if let flag = Flag(rawValue: letter) { return .change(.flag(flag, on: adding)) }
        if let mode = ListMode(rawValue: letter) {
            guard let mask = params.popFirst() else { return .problem(.missingParameter(letter, adding: adding)) }
            return .change(.list(mode, mask: mask, adding: adding))
        }
        if let mode = MemberMode(rawValue: letter) {
            guard let nick = params.popFirst() else { return .problem(.missingParameter(letter, adding: adding)) }
            return .change(.member(mode, nick: nick, adding: adding))
        }
        switch letter {
        case "k":
            guard adding else {
                _ = params.popFirst()
                return .change(.clearKey)
            }
            guard let key = params.popFirst() else { return .problem(.missingParameter("k", adding: true)) }
            guard !key.isEmpty, !key.contains(" ") else { return .problem(.invalidKey(key)) }
            return .change(.setKey(String(key.prefix(IRCLimits.keyLength))))
        case "l":
            guard adding else { return .change(.clearLimit) }
            guard let text = params.popFirst() else { return .problem(.missingParameter("l", adding: true)) }
            guard let limit = Int(text), limit > 0 else { return .problem(.invalidLimit(text)) }
            return .change(.setLimit(limit))
        default:
            return .problem(.unknown(letter))
        }
    }

    /// Changes with a nick or mask count against `MODES=` (keys and limits do not).
    private var countsForLimit: Bool {
        switch self {
        case .list, .member: true
        default: false
        }
    }

    /// The changes as MODE's parameters: `["+kl-o", "key", "10", "nick"]`; none for none.
    public static func serialize(_ changes: some Sequence<ModeChange>) -> [String] {
        let changes = Array(changes)
        let text = letters(changes.map { ($0.adding, $0.letter) })
        return text.isEmpty ? [] : [text] + changes.compactMap(\.parameter)
    }

    /// The letters of a mode string, with a sign wherever the sign changes (and first).
    static func letters(_ modes: [(adding: Bool, letter: Character)]) -> String {
        var letters = ""
        var sign: Bool?
        for (adding, letter) in modes {
            if adding != sign {
                letters.append(adding ? "+" : "-")
                sign = adding
            }
            letters.append(letter)
        }
        return letters
    }
}
