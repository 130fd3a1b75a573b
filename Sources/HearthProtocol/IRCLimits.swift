/// Every protocol limit in one place. Each has a test that crosses it.
public enum IRCLimits {
    /// RFC 1459: a message is at most 512 bytes including the trailing CR LF.
    public static let maxBodyBytes = 512
    /// IRCv3 message-tags: the tag section (with '@' and the trailing space) of a line the
    /// server sends may add 8191 bytes: the client's own tags plus the server's.
    public static let maxTagBytes = 8191
    /// IRCv3 message-tags: tag data a client sends (without '@' and the space) is at most
    /// 4094 bytes, so that relayed with the server's tags it stays within `maxTagBytes`.
    public static let maxClientTagBytes = 4094
    /// The longest raw line the framer accepts before it reports "input too long": a full
    /// client tag section and a full body.
    public static let maxLineBytes = maxBodyBytes + maxClientTagBytes + 2
    /// RFC 2812 allows at most 15 parameters.
    public static let maxParams = 15
    public static let nickLength = 30
    public static let channelLength = 50
    public static let topicLength = 390
    public static let awayLength = 390
    public static let kickLength = 390
    public static let userLength = 18
    public static let realnameLength = 100
    public static let hostLength = 64
    public static let channelsPerUser = 50
    public static let targetsPerMessage = 4
    public static let modesPerCommand = 4
    public static let bansPerChannel = 100
    /// A channel key (+k) longer than this is cut to it.
    public static let keyLength = 32
    /// Nicks one USERHOST answers (RFC 2812: up to five); further ones are ignored.
    public static let userhostTargets = 5
    /// Bytes waiting to be sent to one client before it counts as not reading: it is
    /// disconnected ("SendQ exceeded") rather than making the server hold more for it.
    public static let maxSendQueueBytes = 1024 * 1024
    /// Connections one address may hold at once (ServerConfig can lower or raise it).
    public static let connectionsPerAddress = 32
    /// draft/multiline: the text of one batch (lines joined by newlines) and its line count.
    public static let multilineMaxBytes = 4096
    public static let multilineMaxLines = 100
}
