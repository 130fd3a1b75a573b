import HearthAccounts
import HearthCrypto
import HearthProtocol
import HearthServer
import HearthStore
import Logging

/// Every setting of `hearth serve`, in the order `hearth config example` prints them.
public enum ServeKeys {
    public static let all: [SettingKey] = listeners + identity + storage + people + limits + web + apps + operations

    public static func named(_ name: String) -> SettingKey? { byName[name] }
    static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    static let listeners: [SettingKey] = [
        SettingKey("host", .string, .string("0.0.0.0"), .restart, help: "Address to listen on."),
        SettingKey("irc-port", .int, .int(6667), .restart, help: "IRC and plain-text port.", check: port),
        SettingKey(
            "http-port", .int, .int(8080), .restart, help: "HTTP port: pages, pictures, uploads, /health, /metrics.",
            check: port),
        SettingKey(
            "tls-port", .int, .int(6697), .restart, help: "IRC-over-TLS port (with tls-cert and tls-key).",
            check: port),
        SettingKey(
            "https-port", .int, .int(8443), .restart,
            help: "HTTPS port: pages and IRC over WebSocket (wss://) with the TLS certificate.", check: port),
        SettingKey(
            "tls-cert", .string, nil, .live,
            help: "TLS certificate chain (PEM); scripts/make-cert makes a self-signed one. A reload reads it again."),
        SettingKey("tls-key", .string, nil, .live, help: "TLS private key (PEM)."),
        SettingKey(
            "sts-duration", .int, .int(2_592_000), .restart,
            help:
                "With TLS: seconds clients keep to TLS once told (IRCv3 sts; the plain port names tls-port). "
                + "0 tells them to forget it.",
            check: notNegative),
        SettingKey(
            "proxy-from", .strings, .strings([]), .restart,
            help: "Load balancers (HAProxy send-proxy) whose IRC connections start with a PROXY header."),
        SettingKey(
            "http-proxy-from", .strings, .strings([]), .restart,
            help:
                "Reverse proxies in front of the HTTP port; the visitor is the address they append to "
                + "http-proxy-header (from anyone else that header is ignored).",
            check: { v in HTTPProxies(v.strings ?? []) == nil ? "IP addresses" : nil }),
        SettingKey(
            "http-proxy-header", .string, .string(HTTPProxies.Header.xForwardedFor.rawValue), .restart,
            help: "The header http-proxy-from proxies append the visitor's address to: x-forwarded-for or forwarded.",
            check: { v in HTTPProxies.Header(rawValue: v.string ?? "") == nil ? "x-forwarded-for or forwarded" : nil }),
        SettingKey(
            "threads", .int, nil, .restart, help: "Event-loop threads (default: one per core).",
            check: positive),
        SettingKey(
            "io", .string, .string("epoll"), .restart,
            help:
                "The IRC port's I/O: epoll (Hearth's own loops; Linux only, nio elsewhere) or nio "
                + "(SwiftNIO's pipeline); TLS and HTTP are always NIO's.",
            check: { v in IOMode(rawValue: v.string ?? "") == nil ? "nio or epoll" : nil }),
    ]

    static let identity: [SettingKey] = [
        SettingKey("server-name", .string, .string("hearth.local"), .restart, help: "The server's name in IRC."),
        SettingKey("network", .string, .string("Hearth"), .restart, help: "Network name (ISUPPORT NETWORK)."),
        SettingKey("description", .string, .string("Hearth chat server"), .restart, help: "Shown in WHOIS and LINKS."),
        SettingKey(
            "public-url", .string, nil, .restart,
            help: "Base URL of the links the bot hands out (default http://HOST:HTTP-PORT)."),
        SettingKey(
            "motd-file", .string, nil, .live,
            help: "Message of the day, a text file (default: DATA-DIR/motd if it exists, else a welcome)."),
    ]

    static let storage: [SettingKey] = [
        SettingKey("data-dir", .string, .string("./data"), .restart, help: "Where the database and pictures live."),
        SettingKey(
            "database", .string, nil, .restart, secret: true,
            help: "PostgreSQL as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (without it: SQLite in data-dir)."),
        SettingKey(
            "database-pool", .int, .int(PostgresStore.defaultPoolSize), .restart,
            help: "Connections to PostgreSQL kept at most.",
            check: positive),
        SettingKey(
            "node", .string, nil, .restart,
            help: "This node's name in a network of Hearth processes sharing the database."),
        SettingKey("history-days", .int, .int(90), .live, help: "Days of history kept (0: none).", check: notNegative),
        SettingKey(
            "join-backlog", .int, .int(5), .live, help: "Lines of history shown on joining a channel (0 to 50).",
            check: { v in (0...50).contains(v.int ?? -1) ? nil : "0 to 50" }),
    ]

    static let people: [SettingKey] = [
        SettingKey(
            "oper", .strings, .strings([]), .live, secret: true,
            help: "IRC operators as NAME:PASSWORD (the password may be a hash from `hearth hash-password`).",
            check: { v in (v.strings ?? []).allSatisfy { $0.contains(":") } ? nil : "each one NAME:PASSWORD" }),
        SettingKey(
            "server-password", .string, nil, .restart, secret: true,
            help: "A password every connection gives with PASS before registering (a private server).",
            check: { v in v.string?.isEmpty == true ? "cannot be empty" : nil }),
        SettingKey(
            "min-password-length", .int, .int(PasswordHash.minPasswordLength), .restart,
            help: "Characters a new account password needs at least.",
            check: { v in
                (1...PasswordHash.maxPasswordBytes).contains(v.int ?? 0) ? nil : "1 to \(PasswordHash.maxPasswordBytes)"
            }),
        SettingKey(
            "registrations-per-address", .int, .int(AccountService.registrationsPerAddressPerHour), .restart,
            help: "Accounts one address (an IPv6 /64) may register per hour; an invite code skips the limit.",
            check: { v in (1...10_000).contains(v.int ?? 0) ? nil : "1 to 10000" }),
        SettingKey(
            "register-before-connect", .bool, .bool(true), .restart,
            help: "IRC clients may make an account with REGISTER before they finish connecting."),
        SettingKey(
            "register-email-required", .bool, .bool(false), .restart,
            help: "A new account needs an email address (REGISTER and !register; Hearth sends no mail)."),
        SettingKey(
            "cloak-hosts", .bool, .bool(true), .restart,
            help: "Others see a keyed hash of a user's address, not the address (off: a private server)."),
        SettingKey(
            "always-on", .bool, .bool(false), .restart,
            help:
                "Accounts stay in their channels, marked away, while none of their devices is connected "
                + "(each may !set always-on on, off or default)."),
    ]

    static let limits: [SettingKey] = [
        SettingKey(
            "flood-control", .bool, .bool(true), .live,
            help: "Flood control for connections from loopback too (off: load tests)."),
        SettingKey(
            "flood-burst", .double, .double(FloodTiers.standard.burst), .live,
            help: "Lines a registered client may send at once.",
            check: burst),
        SettingKey(
            "flood-rate", .double, .double(FloodTiers.standard.rate), .live, help: "Lines per second after the burst.",
            check: rate),
        SettingKey(
            "flood-bot-burst", .double, .double(FloodTiers.standard.botBurst), .live,
            help: "The burst of accounts marked as bots.",
            check: burst),
        SettingKey(
            "flood-bot-rate", .double, .double(FloodTiers.standard.botRate), .live,
            help: "Bots' lines per second after it.",
            check: rate),
        SettingKey(
            "flood-unregistered-burst", .double, .double(FloodTiers.standard.unregisteredBurst), .live,
            help: "The burst before registration.",
            check: burst),
        SettingKey(
            "flood-unregistered-rate", .double, .double(FloodTiers.standard.unregisteredRate), .live,
            help: "Lines per second before registration.",
            check: rate),
        SettingKey(
            "connections-per-address", .int, .int(IRCLimits.connectionsPerAddress), .live,
            help: "Connections one address may hold at once.",
            check: positive),
        SettingKey(
            "ping-interval", .double, .double(120), .live, help: "Seconds before an idle client is pinged.",
            check: positiveNumber),
    ]

    static let web: [SettingKey] = [
        SettingKey(
            "page-cache", .double, .double(2), .restart,
            help: "Seconds a page rendered for visitors is reused while nothing changed (0: off, at most 60).",
            check: { v in (0...60).contains(v.double ?? -1) ? nil : "0 to 60 seconds" }),
        SettingKey(
            "metrics", .bool, .bool(true), .restart, help: "Count and serve Prometheus metrics at /metrics."),
        SettingKey(
            "metrics-port", .int, nil, .restart,
            help: "Serve /metrics on this port instead of the HTTP port.", check: port),
        SettingKey(
            "metrics-token", .string, nil, .live, secret: true,
            help: "Bearer token /metrics asks for; without one, only loopback may read it."),
        SettingKey(
            "web-push", .bool, .bool(true), .restart,
            help: "Push notifications to devices that ask (the site's Web Push and IRC's draft/webpush)."),
        SettingKey(
            "push-local-endpoints", .bool, .bool(false), .restart,
            help:
                "Push endpoints may be http:// and on loopback or private addresses "
                + "(tests; not on a public server)."),
    ]

    static let apps: [SettingKey] = [
        SettingKey(
            "media-threads", .int, .int(2), .restart, help: "Threads that decode and draw pictures (1 to 16).",
            check: { v in (1...16).contains(v.int ?? 0) ? nil : "1 to 16" }),
        SettingKey(
            "fortunes", .string, nil, .restart,
            help:
                "A folder of strfile fortune files to add (e.g. /usr/share/games/fortunes): each file, and each "
                + "folder in it, is a category (!fortune science)."),
        SettingKey("fortunes-offensive", .bool, .bool(false), .restart, help: "Include its off/ folder too."),
        SettingKey("edamam-app-id", .string, nil, .restart, help: "Edamam Recipe Search app id, for !edamam."),
        SettingKey("edamam-app-key", .string, nil, .restart, secret: true, help: "Edamam Recipe Search app key."),
        SettingKey(
            "fetch-local-addresses", .bool, .bool(false), .restart,
            help:
                "Pages fetched for users (!recipe import) may be on loopback, private or link-local addresses "
                + "(tests; not on a public server)."),
    ]

    static let operations: [SettingKey] = [
        SettingKey(
            "log-level", .string, .string("info"), .live,
            help: "trace, debug, info, notice, warning, error or critical.",
            check: { v in
                Logger.Level(rawValue: v.string ?? "") == nil
                    ? "trace, debug, info, notice, warning, "
                        + "error or critical" : nil
            }),
        SettingKey(
            "log-format", .string, .string("text"), .restart, help: "text (one line per event) or json.",
            check: { v in LogOutput.Format(rawValue: v.string ?? "") == nil ? "text or json" : nil }),
    ]

    static let port: @Sendable (SettingValue) -> String? = { v in (0...65535).contains(v.int ?? -1) ? nil : "0 to 65535"
    }
    static let positive: @Sendable (SettingValue) -> String? = { v in (v.int ?? 0) >= 1 ? nil : "1 or more" }
    static let notNegative: @Sendable (SettingValue) -> String? = { v in (v.int ?? -1) >= 0 ? nil : "0 or more" }
    static let positiveNumber: @Sendable (SettingValue) -> String? = { v in
        (v.double ?? 0) > 0 && (v.double ?? 0) <= 1e6 ? nil : "more than 0 and at most 1000000"
    }
    /// A burst under one line would never let a line through.
    static let burst: @Sendable (SettingValue) -> String? = { v in
        (1...10_000).contains(v.double ?? 0) ? nil : "1 to 10000 lines"
    }
    /// Lines per second: slower than one a minute and waits overflow nothing, but help nobody.
    static let rate: @Sendable (SettingValue) -> String? = { v in
        (0.01...10_000).contains(v.double ?? 0) ? nil : "0.01 to 10000 lines per second"
    }
}
