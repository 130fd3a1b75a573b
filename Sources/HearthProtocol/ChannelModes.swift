/// The modes a channel holds besides its lists and members: its flags, key and limit, as
/// RPL_CHANNELMODEIS shows them and nodes announce them to each other.
public struct ChannelModes: Sendable, Hashable {
    public var flags: Set<ModeChange.Flag>
    public var key: String?
    public var limit: Int?

    public init(flags: Set<ModeChange.Flag> = [], key: String? = nil, limit: Int? = nil) {
        (self.flags, self.key, self.limit) = (flags, key, limit)
    }

    /// `+nt`, or `+ntkl key 10` (the key as `*` unless `showKey`); `+` for none.
    public func serialized(showKey: Bool) -> [String] {
        var changes = flags.sorted { $0.rawValue < $1.rawValue }.map { ModeChange.flag($0, on: true) }
        if let key { changes.append(.setKey(showKey ? key : "*")) }
        if let limit { changes.append(.setLimit(limit)) }
        return changes.isEmpty ? ["+"] : ModeChange.serialize(changes)
    }

    /// Modes as `serialized(showKey: true)` wrote them; nil for anything else (a removal, a
    /// list or member change, a bad key or limit, an unknown mode). With `ignoringUnknown`, a
    /// flag letter this version does not know (a newer node's) is skipped instead.
    public init?(_ params: [String], ignoringUnknown: Bool = false) {
        self.init()
        guard let letters = params.first else { return }
        for step in ModeChange.parse(letters, params.dropFirst(), limit: 0) {
            switch step {
            case .change(.flag(let flag, on: true)): flags.insert(flag)
            case .change(.setKey(let key)): self.key = key
            case .change(.setLimit(let limit)): self.limit = limit
            case .problem(.unknown) where ignoringUnknown: continue
            default: return nil
            }
        }
    }

    /// The flags as sorted letters (`nt`, or "" for none): how a registered channel's record
    /// keeps them, its key and limit in columns of their own.
    public var flagLetters: String {
        String(ChannelModes(flags: flags).serialized(showKey: false)[0].dropFirst())
    }

    /// Modes as a registered channel's record keeps them (`flagLetters`, key, limit); a flag
    /// letter this version does not know is skipped.
    public init(flagLetters: String, key: String?, limit: Int?) {
        self = ChannelModes(["+" + flagLetters], ignoringUnknown: true) ?? ChannelModes()
        (self.key, self.limit) = (key, limit)
    }
}
