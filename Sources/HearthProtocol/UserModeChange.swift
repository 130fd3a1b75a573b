/// One change to a user's own modes (`MODE nick +iw-o`). Pure, like `ModeChange`: the server
/// decides what each does (+o is gained with OPER only, so the server ignores it here).
public enum UserModeChange: Sendable, Hashable {
    case flag(Flag, on: Bool)
    /// A letter that is no user mode: ERR_UMODEUNKNOWNFLAG (501), and the rest still applies.
    case unknown(Character)

    public enum Flag: Character, Sendable, CaseIterable {
        case bot = "B"
        case invisible = "i"
        case oper = "o"
        case wallops = "w"
    }

    /// The changes of a mode string, in order; it starts by adding. User modes take no parameter.
    public static func parse(_ modes: String) -> [UserModeChange] {
        var adding = true
        var changes: [UserModeChange] = []
        for letter in modes {
            switch letter {
            case "+": adding = true
            case "-": adding = false
            default: changes.append(Flag(rawValue: letter).map { .flag($0, on: adding) } ?? .unknown(letter))
            }
        }
        return changes
    }

    /// `+iw-o`: a sign once per run; "" for none.
    public static func serialize(_ changes: some Sequence<(flag: Flag, on: Bool)>) -> String {
        ModeChange.letters(changes.map { ($0.on, $0.flag.rawValue) })
    }
}
