import Foundation
import HearthApps
import HearthServer
import Logging

/// The settings turned into what the server, the apps and the logs are made with.
public struct ServeSettings: Sendable {
    public var server: ServerConfig
    public var apps: AppsConfig
    public var logLevel: Logger.Level
    public var logFormat: LogOutput.Format
    public var database: String?
    public var databasePool: Int

    /// Also reads what the settings name: the MOTD file and DATA-DIR/opers.conf.
    public init(_ settings: Settings, environment: [String: String]) throws {
        func string(_ name: String) -> String? { settings[name]?.string }
        func int(_ name: String) -> Int { settings[name]?.int ?? 0 }
        func double(_ name: String) -> Double { settings[name]?.double ?? 0 }
        func bool(_ name: String) -> Bool { settings[name]?.bool ?? false }
        var config = ServerConfig()
        config.host = string("host") ?? config.host
        config.ircPort = int("irc-port")
        config.httpPort = int("http-port")
        config.tlsPort = int("tls-port")
        config.httpsPort = int("https-port")
        config.tlsCertificatePath = string("tls-cert")
        config.tlsKeyPath = string("tls-key")
        config.stsDuration = int("sts-duration")
        if (config.tlsCertificatePath == nil) != (config.tlsKeyPath == nil) {
            throw Settings.Problems(list: ["tls-cert and tls-key go together"])
        }
        config.trustedProxies = Set(settings["proxy-from"]?.strings ?? [])
        let httpHeader = string("http-proxy-header").flatMap(HTTPProxies.Header.init(rawValue:)) ?? .xForwardedFor
        config.httpProxies = HTTPProxies(settings["http-proxy-from"]?.strings ?? [], header: httpHeader) ?? .init()
        config.eventLoopThreads = settings["threads"]?.int
        if let io = string("io").flatMap(IOMode.init(rawValue:)) { config.io = io }
        config.serverName = string("server-name") ?? config.serverName
        config.networkName = string("network") ?? config.networkName
        config.description = string("description") ?? config.description
        config.publicURL = string("public-url")
        config.dataDirectory = string("data-dir") ?? config.dataDirectory
        config.node = string("node")
        if let node = config.node {
            guard !node.isEmpty, node.utf8.count <= 63,
                node.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
            else { throw Settings.Problems(list: ["node: letters, digits, - _ . (at most 63)"]) }
        }
        config.historyDays = int("history-days")
        config.joinBacklog = int("join-backlog")
        config.minPasswordLength = int("min-password-length")
        config.registrationsPerAddress = int("registrations-per-address")
        config.serverPassword = string("server-password")
        config.cloakHosts = bool("cloak-hosts")
        config.alwaysOn = bool("always-on")
        config.registerBeforeConnect = bool("register-before-connect")
        config.registerEmailRequired = bool("register-email-required")
        config.floodControl = bool("flood-control")
        config.flood.burst = double("flood-burst")
        config.flood.rate = double("flood-rate")
        config.flood.botBurst = double("flood-bot-burst")
        config.flood.botRate = double("flood-bot-rate")
        config.flood.unregisteredBurst = double("flood-unregistered-burst")
        config.flood.unregisteredRate = double("flood-unregistered-rate")
        config.maxConnectionsPerAddress = int("connections-per-address")
        config.pingInterval = double("ping-interval")
        config.pageCacheSeconds = double("page-cache")
        config.metrics = bool("metrics")
        config.metricsPort = settings["metrics-port"]?.int
        config.metricsToken = string("metrics-token")
        config.webPush = bool("web-push")
        config.pushLocalEndpoints = bool("push-local-endpoints")
        config.mediaThreads = int("media-threads")
        config.operators = try Operators.load(settings["oper"]?.strings ?? [], dataDirectory: config.dataDirectory)
        if let motd = try Self.motd(file: string("motd-file"), dataDirectory: config.dataDirectory) {
            config.motd = motd
        }
        server = config
        apps = AppsConfig()
        apps.fortunesDirectory = string("fortunes")
        apps.fortunesOffensive = bool("fortunes-offensive")
        apps.fetchLocalAddresses = bool("fetch-local-addresses")
        // Edamam's own variable names still work (they came first).
        if let id = string("edamam-app-id") ?? environment["EDAMAM_APP_ID"],
            let key = string("edamam-app-key") ?? environment["EDAMAM_APP_KEY"]
        {
            apps.edamam = EdamamConfig(appID: id, appKey: key)
        }
        logLevel = Logger.Level(rawValue: string("log-level") ?? "info") ?? .info
        logFormat = LogOutput.Format(rawValue: string("log-format") ?? "text") ?? .text
        // HEARTH_DATABASE_URL came before the configuration file and stays.
        database = string("database") ?? environment["HEARTH_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        databasePool = int("database-pool")
    }

    /// Lines longer than this are cut: a MOTD line is one IRC line.
    public static let maxMotdLineBytes = 400
    /// Lines of MOTD kept at most.
    public static let maxMotdLines = 100

    /// The MOTD: the file named, else DATA-DIR/motd when present (nil: the built-in welcome).
    static func motd(file: String?, dataDirectory: String) throws -> [String]? {
        let path = file ?? (dataDirectory as NSString).appendingPathComponent("motd")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            if file != nil { throw Settings.Problems(list: ["motd-file: cannot read \(path)"]) }
            return nil
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { cut(String($0).trimmingCharacters(in: .controlCharacters), toBytes: maxMotdLineBytes) }
        return Array(lines.reversed().drop { $0.isEmpty }.reversed().prefix(maxMotdLines).map { $0.isEmpty ? " " : $0 })
    }

    /// The longest start of `text` of at most `limit` UTF-8 bytes that ends between characters.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        var bytes = 0
        return String(
            text.prefix { character in
                bytes += character.utf8.count
                return bytes <= limit
            })
    }
}

/// IRC operators: the `oper` setting, then DATA-DIR/opers.conf (NAME PASSWORD per line).
public enum Operators {
    public static func load(_ given: [String], dataDirectory: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let file = (dataDirectory as NSString).appendingPathComponent("opers.conf")
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2 { result[parts[0]] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        for entry in given {
            guard let colon = entry.firstIndex(of: ":") else { throw Settings.Problems(list: ["oper: NAME:PASSWORD"]) }
            result[String(entry[..<colon])] = String(entry[entry.index(after: colon)...])
        }
        return result
    }
}
