import ArgumentParser
import Foundation
import HearthAccounts
import HearthBot
import HearthCrypto
import HearthMedia
import HearthMediaLibrary
import HearthProtocol
import HearthServer
import HearthStore
import Logging
import ServiceLifecycle

@main
struct Hearth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hearth: a chat server for nc, IRC clients and bots, with a built-in social bot.",
        subcommands: [
            Serve.self, User.self, Template.self, HashPassword.self, BackupCommand.self, RestoreCommand.self,
            MigrateCommand.self, NodesCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server.")

    @Option(help: "Address to listen on.") var host = "0.0.0.0"
    @Option(help: "IRC and plain-text port.") var ircPort = 6667
    @Option(help: "HTTP port (image links, uploads, /health).") var httpPort = 8080
    @Option(help: "Where the database and media live.") var dataDir = "./data"
    @Option(help: "The server's name in IRC messages.") var serverName = "hearth.local"
    @Option(help: "Network name (ISUPPORT NETWORK).") var network = "Hearth"
    @Option(help: "One-line description shown in WHOIS.") var description = "Hearth chat server"
    @Option(help: "Base URL for links the bot hands out (default http://HOST:HTTP-PORT).") var publicURL: String?
    @Option(
        help:
            "An IRC operator as NAME:PASSWORD (the password may be an Argon2id hash from `hearth hash-password`). Repeatable. Also read from DATA-DIR/opers.conf (NAME PASSWORD per line)."
    )
    var oper: [String] = []
    @Flag(help: "Turn flood control off for connections from loopback (load tests).") var noFloodControl = false
    @Option(help: "Seconds before an idle IRC client is pinged.") var pingInterval: Double = 120
    @Option(help: "Event-loop threads (default: one per core).") var threads: Int?
    @Option(help: "Days of channel and conversation history kept (0: none).") var historyDays = 90
    @Option(help: "Lines of history shown to someone joining a channel.") var joinBacklog = 5
    @Option(help: "Threads that decode and draw pictures.") var mediaThreads = 2
    @Option(help: "TLS certificate chain (PEM) for IRC over TLS; scripts/make-cert makes a self-signed one.")
    var tlsCert: String?
    @Option(help: "TLS private key (PEM).") var tlsKey: String?
    @Option(help: "IRC-over-TLS port.") var tlsPort = 6697
    @Option(help: "HTTPS port: pages and IRC over WebSocket (wss://) with the TLS certificate.") var httpsPort = 8443
    @Option(help: "Seconds a page rendered for visitors is reused while nothing changed (0: off).")
    var pageCache: Double = 2
    @Option(
        help:
            "A directory of strfile fortune databases to add to the built-in sayings (e.g. /usr/share/games/fortunes).")
    var fortunes: String?
    @Flag(help: "Include the offensive fortune sets of --fortunes (its off/ folder).") var fortunesOffensive = false
    @Option(help: "Edamam Recipe Search app id (or EDAMAM_APP_ID), for !edamam.") var edamamAppId: String?
    @Option(help: "Edamam Recipe Search app key (or EDAMAM_APP_KEY).") var edamamAppKey: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
    @OptionGroup var database: DatabaseOptions
    @Option(
        help: ArgumentHelp(
            "This node's name in a network of Hearth processes sharing the --database "
                + "(unique per node, e.g. the host name)."))
    var node: String?
    @Option(
        help: ArgumentHelp(
            "A load balancer (HAProxy with send-proxy) whose IRC connections start with a PROXY header "
                + "naming the client. Repeatable.",
            valueName: "address"))
    var proxyFrom: [String] = []
    @OptionGroup var passwords: PasswordOptions
    @Option(
        help: ArgumentHelp(
            "A password every connection must give with PASS before registering (a private server). "
                + "Also read from HEARTH_SERVER_PASSWORD.",
            valueName: "password"))
    var serverPassword: String?

    func run() async throws {
        var logger = Logger(label: "hearth")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var config = ServerConfig()
        config.host = host
        config.ircPort = ircPort
        config.httpPort = httpPort
        config.dataDirectory = dataDir
        config.serverName = serverName
        config.networkName = network
        config.description = description
        config.publicURL = publicURL
        config.floodControl = !noFloodControl
        config.pingInterval = pingInterval
        config.eventLoopThreads = threads
        config.historyDays = max(0, historyDays)
        config.joinBacklog = max(0, min(joinBacklog, 50))
        config.mediaThreads = max(1, min(mediaThreads, 16))
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        config.tlsCertificatePath = tlsCert
        config.tlsKeyPath = tlsKey
        config.tlsPort = tlsPort
        config.httpsPort = httpsPort
        config.pageCacheSeconds = max(0, min(pageCache, 60))
        if let node {
            guard !node.isEmpty, node.utf8.count <= 63,
                node.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
            else { throw ValidationError("--node: letters, digits, - _ . (at most 63)") }
            guard try database.url != nil else {
                throw ValidationError("--node needs --database postgres://… (the nodes of a network share it)")
            }
            config.node = node
        }
        config.trustedProxies = Set(proxyFrom)
        config.minPasswordLength = try passwords.minimum()
        config.serverPassword = serverPassword ?? ProcessInfo.processInfo.environment["HEARTH_SERVER_PASSWORD"]
        if config.serverPassword?.isEmpty == true { throw ValidationError("--server-password cannot be empty") }
        var apps = AppsConfig()
        apps.fortunesDirectory = fortunes
        apps.fortunesOffensive = fortunesOffensive
        let environment = ProcessInfo.processInfo.environment
        if let id = edamamAppId ?? environment["EDAMAM_APP_ID"], let key = edamamAppKey ?? environment["EDAMAM_APP_KEY"]
        {
            apps.edamam = EdamamConfig(appID: id, appKey: key)
        }
        config.operators = try Operators.load(flags: oper, dataDirectory: dataDir)
        // Its error says a server already runs here (ArgumentParser prints its description).
        let lock = try DataDirectoryLock(dataDirectory: dataDir)
        let store = try await database.open(dataDirectory: dataDir, logger: logger)
        logger.info("data: \(store.location)")
        let server = try HearthServer(config: config, apps: HearthApps.builtIn(apps), store: store, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: try server.services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        Task {
            let (irc, http) = await server.ports()
            let ways = "nc localhost \(irc) · IRC clients on port \(irc) · http://localhost:\(http)/health"
            logger.info("Hearth is up: \(ways) · data in \(store.location)")
        }
        try await group.run()
        withExtendedLifetime(lock) {}
        logger.info("Hearth stopped cleanly.")
    }
}

enum Operators {
    static func load(flags: [String], dataDirectory: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let file = (dataDirectory as NSString).appendingPathComponent("opers.conf")
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2 { result[parts[0]] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        for flag in flags {
            guard let colon = flag.firstIndex(of: ":") else { throw ValidationError("--oper wants NAME:PASSWORD") }
            result[String(flag[..<colon])] = String(flag[flag.index(after: colon)...])
        }
        return result
    }
}

struct User: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage accounts from the shell (works while the server runs).", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account.")
        @Argument var name: String
        @Argument var password: String
        @Option(help: "Where the database lives.") var dataDir = "./data"
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var passwords: PasswordOptions

        func run() async throws {
            if let problem = AccountService.nameProblem(name) { throw ValidationError(problem) }
            if let problem = AccountService.passwordProblem(password, minimum: try passwords.minimum()) {
                throw ValidationError(problem)
            }
            let store = try await database.open(dataDirectory: dataDir, logger: Logger(label: "hearth"))
            defer { Task { await store.close() } }
            guard let hash = PasswordHash.hash(password) else { throw ValidationError("hashing failed") }
            let scram = try Scram.credentials(password: password)
            do {
                let account = try await store.createAccount(
                    name: name, nameKey: IRCNames.fold(name), passwordHash: hash, email: nil, phone: nil,
                    recoveryHashes: [])
                try await store.setScramCredentials(accountID: account.id, scram)
                print("created account \(account.name) (id \(account.id)) in \(store.location)")
            } catch StoreError.nameTaken {
                throw ValidationError("the name \(name) is taken")
            }
        }
    }
}

struct HashPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash-password", abstract: "Print an Argon2id hash (for --oper or opers.conf).")
    @Argument var password: String
    func run() async throws {
        guard let hash = PasswordHash.hash(password) else { throw ValidationError("hashing failed") }
        print(hash)
    }
}

struct Template: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage global meme templates (works while the server runs).", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a picture as a template everyone can use (top and bottom text).")
        @Argument(help: "Template name (letters, digits, dashes).") var name: String
        @Argument(help: "A PNG, JPEG, GIF or WebP file.") var file: String
        @Option(help: "Where the database and media live.") var dataDir = "./data"
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            if let problem = TemplateNames.problem(name) { throw ValidationError(problem) }
            guard let bytes = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read \(file)")
            }
            let store = try await database.open(dataDirectory: dataDir, logger: Logger(label: "hearth"))
            defer { Task { await store.close() } }
            let media = try MediaLibrary(
                directory: URL(fileURLWithPath: dataDir).appendingPathComponent("media"), publicURL: "", threads: 1,
                shared: store.sharedPictures)
            defer { Task { try? await media.shutdown() } }
            let image: ImageRecord
            do { image = try await media.ingest([UInt8](bytes), ownerID: nil) } catch {
                throw ValidationError("\(file): \(error)")
            }
            _ = try await store.addUpload(image, tokenHash: nil)
            let boxes = String(decoding: try JSONEncoder().encode(CaptionBox.classic), as: UTF8.self)
            do {
                _ = try await store.addTemplate(
                    TemplateRecord(ownerId: nil, name: name, imageId: image.id, boxes: boxes))
            } catch StoreError.nameTaken {
                media.delete(ids: [image.id])
                throw ValidationError("there is a global template called \(name) already")
            }
            print(
                "added template \(name) (\(image.width)×\(image.height)); use it: !meme \(name) top text | bottom text")
        }
    }
}

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database (SQLite online backup) and pictures; safe while the server runs.")
    @Argument(help: "The backup file to create; pictures are copied to FILE.media/.") var file: String
    @Option(help: "Where the database and media live.") var dataDir = "./data"
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try database.refuseOnPostgres("back up", with: "pg_dump")
        guard FileManager.default.fileExists(atPath: (dataDir as NSString).appendingPathComponent(SQLiteStore.fileName))
        else {
            throw ValidationError("there is no Hearth database in \(dataDir)")
        }
        let store = try SQLiteStore(dataDirectory: dataDir)
        let summary = try Backup.create(
            from: store, mediaDirectory: (dataDir as NSString).appendingPathComponent("media"), to: file)
        print(
            "backed up \(summary.databaseBytes) bytes of database to \(file) and \(summary.mediaFiles) pictures to \(Backup.mediaCopy(of: file))/"
        )
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup (and add its pictures). Stop the server first.")
    @Argument(help: "A file made by `hearth backup`.") var file: String
    @Option(help: "Where the database and media live.") var dataDir = "./data"
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try database.refuseOnPostgres("restore", with: "pg_restore")
        // Its error says a server already runs here (ArgumentParser prints its description).
        let lock = try DataDirectoryLock(dataDirectory: dataDir)
        let keptAs = try Backup.restore(from: file, into: dataDir)
        _ = try SQLiteStore(dataDirectory: dataDir)  // brings an older backup's schema up to date
        print("restored \(file) into \(dataDir)" + (keptAs.map { "; the previous database is kept as \($0)" } ?? ""))
        withExtendedLifetime(lock) {}
    }
}

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole SQLite Hearth (every table and picture) into an empty PostgreSQL database.")
    @Option(help: "The SQLite Hearth's data directory.") var from = "./data"
    @Option(help: "The PostgreSQL database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.") var to: String

    func run() async throws {
        let logger = Logger(label: "hearth")
        guard FileManager.default.fileExists(atPath: (from as NSString).appendingPathComponent(SQLiteStore.fileName))
        else { throw DatabaseOptions.Failure(description: "there is no Hearth database in \(from)") }
        // A running server would keep writing to what is being copied.
        let lock = try DataDirectoryLock(dataDirectory: from)
        let source = try SQLiteStore(dataDirectory: from)
        let url: DatabaseURL
        do { url = try DatabaseURL(parsing: to) } catch {
            throw DatabaseOptions.Failure(description: error.description)
        }
        let target: PostgresStore
        do { target = try await PostgresStore.open(url, logger: logger) } catch {
            throw DatabaseOptions.Failure(description: error.description)
        }
        defer { Task { await target.close() } }
        let summary: PostgresStore.ImportSummary
        do {
            summary = try await target.importSQLite(
                source, mediaDirectory: (from as NSString).appendingPathComponent("media"))
        } catch {
            throw DatabaseOptions.Failure(description: "\(error)")
        }
        let total = summary.rows.reduce(0) { $0 + $1.count }
        print(
            "copied \(total) rows in \(summary.rows.count) tables and \(summary.pictures) pictures "
                + "from \(from) to \(url):"
        )
        print(summary.rows.filter { $0.count > 0 }.map { "\($0.table) \($0.count)" }.joined(separator: ", "))
        print(
            "every table has as many rows in PostgreSQL as in SQLite. "
                + "Copy \(from)/\(CodeHasher.fileName) into the data directory of every Hearth that serves "
                + "this database: it keys recovery and invite codes.")
        withExtendedLifetime(lock) {}
    }
}

struct NodesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodes", abstract: "List the nodes of a Hearth network, with their users and last heartbeat.")
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard try database.url != nil else {
            throw DatabaseOptions.Failure(description: "a network lives in PostgreSQL: give --database postgres://…")
        }
        let store = try await database.open(dataDirectory: "./data", logger: Logger(label: "hearth"))
        defer { Task { await store.close() } }
        guard let network = store.network else { return }
        let nodes = try await network.nodes()
        if nodes.isEmpty { print("no nodes are running on \(store.location)") }
        let now = Date()
        for node in nodes {
            let ago = Int(now.timeIntervalSince(node.heartbeatAt).rounded())
            let state = ago > Int(NetworkLimits.nodeTimeout.components.seconds) ? "  (not answering)" : ""
            print(
                "\(node.name)  \(node.users) user\(node.users == 1 ? "" : "s")  heartbeat \(ago) s ago  "
                    + "up since \(node.startedAt.formatted(.iso8601))\(state)")
        }
        await store.close()
    }
}

/// The password rule operators choose: `hearth serve` (for !register, !passwd, !recover) and
/// `hearth user add` take the same option.
struct PasswordOptions: ParsableArguments {
    @Option(help: "Characters a new password needs at least (1 or more; a test network may want short ones).")
    var minPasswordLength = PasswordHash.minPasswordLength

    func minimum() throws -> Int {
        guard (1...PasswordHash.maxPasswordBytes).contains(minPasswordLength) else {
            throw ValidationError("--min-password-length: 1 to \(PasswordHash.maxPasswordBytes)")
        }
        return minPasswordLength
    }
}
