import Foundation
import HearthAccounts
import HearthCrypto
import HearthKit
import HearthProtocol

/// Everything an operator can set. Defaults suit a small self-hosted server.
public struct ServerConfig: Sendable {
    public var host = "0.0.0.0"
    public var ircPort = 6667
    public var httpPort = 8080
    /// Seconds an HTTP connection may stay idle (including a request that stalls) before it is closed.
    public var httpIdleTimeout: TimeInterval = 30
    /// IRC over TLS, when both a certificate chain and a key (PEM files) are given.
    public var tlsPort = 6697
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Seconds a client that saw the TLS port keeps to it (IRCv3 sts), advertised when TLS is on.
    public var stsDuration = 2_592_000
    /// The web side over TLS (pages, sign-in with Secure cookies, IRC over WebSocket as wss://),
    /// with the same certificate, when one is given.
    public var httpsPort = 8443
    /// Seconds a page rendered for visitors (not signed in) is served again, while no bot
    /// command has run in between (0: every request renders).
    public var pageCacheSeconds: Double = 2
    public var dataDirectory = "./data"
    /// This process's name in a network of nodes sharing one PostgreSQL database (nil: alone).
    public var node: String?
    /// Load balancers whose connections start with a PROXY protocol header naming the client.
    public var trustedProxies: Set<String> = []
    /// Reverse proxies in front of the HTTP port, whose forwarding header names the visitor.
    public var httpProxies = HTTPProxies()
    public var serverName = "hearth.local"
    public var networkName = "Hearth"
    public var description = "Hearth chat server"
    /// Base of links the bot hands out; defaults to http://HOST:HTTPPORT.
    public var publicURL: String?
    /// IRC operators: name → password (plain text or an Argon2id hash from `hearth hash-password`).
    public var operators: [String: String] = [:]
    /// Others see a user's host as a keyed hash of its address (`HostCloak`), not the address.
    public var cloakHosts = true
    /// Accounts that chose nothing stay present while no device is connected (see IRC/AlwaysOn.swift).
    public var alwaysOn = false
    /// When false, connections from loopback addresses skip flood control (load tests).
    public var floodControl = true
    /// Flood control's token buckets, per kind of connection.
    public var flood = FloodTiers.standard
    /// The configuration file it was started with (REHASH names it).
    public var configFile: String?
    /// Metrics counted and served at /metrics (off: not counted at all).
    public var metrics = true
    /// `/metrics` on its own port instead of the HTTP port (nil: on the HTTP port).
    public var metricsPort: Int?
    /// The bearer token `/metrics` asks for; without one only loopback may read it.
    public var metricsToken: String?
    /// Push notifications to subscribed devices (`--web-push`).
    public var webPush = true
    /// Push endpoints may be plain http and on loopback or private addresses (`--push-local-endpoints`):
    /// the tests' push service stand-in listens on 127.0.0.1.
    public var pushLocalEndpoints = false
    /// Connections one address may hold at once; loopback is exempt when flood control is off.
    public var maxConnectionsPerAddress = IRCLimits.connectionsPerAddress
    public var motd: [String] = [
        "Welcome to Hearth — chat, memes, fortunes, recipes and family trees.",
        "Type !help in any channel or /msg hearth help to see what the bot can do.",
    ]
    /// Unregistered connections are closed after this many seconds.
    public var registrationTimeout: TimeInterval = 60
    /// An idle IRC client is sent PING after this many seconds…
    public var pingInterval: TimeInterval = 120
    /// …and closed if it stays silent this much longer.
    public var pingTimeout: TimeInterval = 60
    /// Plain-mode connections get this hint if they say nothing after connecting.
    public var plainGreetingDelay: TimeInterval = 2
    public var passwordCost: PasswordHash.Cost = .interactive
    public var passwordThreads = 2
    /// Characters a new account password needs at least.
    public var minPasswordLength = PasswordHash.minPasswordLength
    /// Accounts one address (an IPv6 /64) may register per hour without an invite code.
    public var registrationsPerAddress = AccountService.registrationsPerAddressPerHour
    /// `REGISTER` works before connection registration ends (`--register-before-connect`).
    public var registerBeforeConnect = true
    /// A new account needs an email address (`--register-email-required`).
    public var registerEmailRequired = false
    /// The password PASS must give before registration (nil: anyone may connect).
    public var serverPassword: String?
    /// Threads that decode and draw pictures (libgd), off the event loops.
    public var mediaThreads = 2
    /// Where "now" comes from (tests move it across midnights).
    public var clock: HearthClock = .system
    /// Days of channel and private history kept; 0 keeps none.
    public var historyDays = 90
    /// Lines of history shown to someone joining a channel.
    public var joinBacklog = 5
    /// Event-loop threads for IRC and HTTP; nil uses one per core (NIO's shared group).
    public var eventLoopThreads: Int?
    /// Who does the plain-TCP IRC port's I/O: Hearth's own epoll loops, or SwiftNIO's channel pipeline.
    public var io = IOMode.epoll

    public init() {}

    public var linkBase: String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = (host == "0.0.0.0" || host == "::") ? "localhost" : host
        return "http://\(shownHost):\(httpPort)"
    }
}

/// `--io`: the plain-TCP IRC port's I/O layer (TLS, HTTP and WebSocket are always SwiftNIO's).
public enum IOMode: String, Sendable, CaseIterable {
    case nio, epoll

    /// The layer that runs when this one is asked for: epoll is Linux's, so elsewhere the port
    /// is SwiftNIO's.
    public var available: IOMode {
        #if os(Linux)
            self
        #else
            .nio
        #endif
    }
}
