/// The RPL_ISUPPORT (005) tokens, split into lines of at most 13 tokens each.
public enum ISupport {
    public static let tokensPerLine = 13

    public static func tokens(network: String, extra: [String] = []) -> [String] {
        let targets = IRCLimits.targetsPerMessage
        return [
            "ACCOUNTEXTBAN=a",
            "AWAYLEN=\(IRCLimits.awayLength)",
            "BOT=B",
            "CASEMAPPING=ascii",
            "CHANLIMIT=#:\(IRCLimits.channelsPerUser)",
            "CHANMODES=beI,k,l,CMRimnst",
            "CHANNELLEN=\(IRCLimits.channelLength)",
            "CHATHISTORY=100",
            "CHANTYPES=#",
            "ELIST=CMNTU",
            "EXCEPTS",
            "EXTBAN=,am",
            "HOSTLEN=\(IRCLimits.hostLength)",
            "INVEX",
            "KICKLEN=\(IRCLimits.kickLength)",
            "KNOCK",
            "MAXLIST=beI:\(IRCLimits.bansPerChannel)",
            "MAXTARGETS=\(IRCLimits.targetsPerMessage)",
            "MODES=\(IRCLimits.modesPerCommand)",
            "MONITOR=100",
            "NETWORK=\(network)",
            "NICKLEN=\(IRCLimits.nickLength)",
            "PREFIX=(ov)@+",
            "SAFELIST",
            "STATUSMSG=@+",
            "TARGMAX=JOIN:,KICK:\(targets),LIST:,NAMES:\(targets),NOTICE:\(targets),PART:,PRIVMSG:\(targets),WHOIS:1",
            "TOPICLEN=\(IRCLimits.topicLength)",
            "USERLEN=\(IRCLimits.userLength)",
            "UTF8ONLY",
            "WHOX",
        ] + extra
    }

    public static func lines(_ tokens: [String]) -> [[String]] {
        stride(from: 0, to: tokens.count, by: tokensPerLine).map {
            Array(tokens[$0..<min($0 + tokensPerLine, tokens.count)])
        }
    }
}
