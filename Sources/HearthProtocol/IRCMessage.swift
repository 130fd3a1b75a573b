/// One IRC message: optional IRCv3 tags, optional source, a command and its parameters.
/// Parsing and serialising follow RFC 1459/2812 and the IRCv3 message-tags length rules.
public struct IRCMessage: Sendable, Equatable {
    public var tags: [IRCTag]
    public var source: String?
    public var command: String
    public var params: [String]

    public init(tags: [IRCTag] = [], source: String? = nil, command: String, params: [String] = []) {
        self.tags = tags
        self.source = source
        self.command = command
        self.params = params
    }

    public init(source: String? = nil, _ command: String, _ params: String...) {
        self.init(source: source, command: command, params: params)
    }

    public func tag(_ key: String) -> String? {
        tags.first { $0.key == key }.map { $0.value ?? "" }
    }
}

public struct IRCTag: Sendable, Equatable {
    public var key: String
    public var value: String?
    public init(_ key: String, _ value: String? = nil) {
        self.key = key
        self.value = value
    }
}

/// Why a line could not be parsed; each has a numeric-friendly description.
public enum IRCParseError: Error, Equatable, Sendable {
    case empty
    case tagsTooLong
    case bodyTooLong
    case invalidUTF8
    case containsNUL
    case containsCR
    case missingCommand
    case invalidCommand
    case tooManyParams

    public var explanation: String {
        switch self {
        case .empty: return "Empty line"
        case .tagsTooLong:
            return "Message tags too long (the limit is \(IRCLimits.maxClientTagBytes) bytes of tag data)"
        case .bodyTooLong: return "Input line too long (the limit is \(IRCLimits.maxBodyBytes) bytes)"
        case .invalidUTF8: return "Message rejected: this server only accepts UTF-8"
        case .containsNUL: return "Message rejected: it contains a NUL byte"
        case .containsCR: return "Message rejected: it contains a carriage return or line feed inside the line"
        case .missingCommand: return "Missing command"
        case .invalidCommand: return "Invalid command"
        case .tooManyParams: return "Too many parameters (the limit is \(IRCLimits.maxParams))"
        }
    }
}
