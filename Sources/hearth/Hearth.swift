import ArgumentParser
import Foundation
import HearthAccounts
import HearthApps
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
        version: HearthVersion.number,
        subcommands: [
            Serve.self, User.self, InviteCommand.self, Template.self, HashPassword.self, BackupCommand.self,
            RestoreCommand.self,
            MigrateCommand.self, NodesCommand.self, ConfigCommand.self,
        ],
        defaultSubcommand: Serve.self)
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

/// `hearth invite`: an operator's invite code, for `!register NAME PASSWORD … CODE` past the
/// accounts-per-address limit (a family signing up from one home, a class in one room).
struct InviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Print an invite code that lets accounts register past the per-address limit "
            + "(works while the server runs).")
    static let maxDays = 365
    @Option(help: "Registrations the code allows (1 to \(AccountService.maxRegistrationInviteUses)).") var uses = 1
    @Option(help: "Days the code stays valid (1 to \(maxDays)).") var expires = 7
    @Option(help: "Where the database lives.") var dataDir = "./data"
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (1...AccountService.maxRegistrationInviteUses).contains(uses) else {
            throw ValidationError("--uses must be 1 to \(AccountService.maxRegistrationInviteUses)")
        }
        guard (1...Self.maxDays).contains(expires) else {
            throw ValidationError("--expires must be 1 to \(Self.maxDays) days")
        }
    }

    func run() async throws {
        // The server secret keys the code's hash, as the server's own codes.
        let codes = try CodeHasher.load(directory: dataDir, create: false)
        let store = try await database.open(dataDirectory: dataDir, logger: Logger(label: "hearth"))
        defer { Task { await store.close() } }
        let code = SecretCodes.code(groups: 3)
        let now = Date()
        let until = now.addingTimeInterval(TimeInterval(expires) * 86400)
        try await store.addRegistrationInvite(
            codeHash: codes.hash(AccountService.registrationInviteKey(code)), uses: uses, expiresAt: until, now: now)
        let times = uses == 1 ? "once" : "\(uses) times"
        print(
            "invite code \(code) works \(times) until \(until.formatted(.iso8601))"
                + " (past the accounts-per-address limit)"
        )
        print("to use it: !register NAME PASSWORD \(code)")
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
        commandName: "templates", abstract: "Manage global meme templates (works while the server runs).",
        subcommands: [Add.self, Import.self], aliases: ["template"])

    /// The data directory's pictures, for a command run beside the server.
    static func media(_ dataDir: String, _ store: any Store) throws -> MediaLibrary {
        try MediaLibrary(
            directory: URL(fileURLWithPath: dataDir).appendingPathComponent("media"), publicURL: "", threads: 1,
            shared: store.sharedPictures)
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a memegen-style template pack: one folder per template (config.yml + default.jpg|png|gif).")
        @Argument(help: "The folder holding the template folders (memegen's templates/).") var directory: String
        @Option(help: "Where the database and media live.") var dataDir = "./data"
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open(dataDirectory: dataDir, logger: Logger(label: "hearth"))
            defer { Task { await store.close() } }
            let media = try Template.media(dataDir, store)
            defer { Task { try? await media.shutdown() } }
            let report: TemplatePackImport.Report
            do {
                report = try await TemplatePackImport.run(
                    URL(fileURLWithPath: directory), store: store, media: media)
            } catch let problem as TemplatePack.Problem {
                throw ValidationError(problem.description)
            }
            for (folder, reason) in report.skipped { print("skipped \(folder): \(reason)") }
            print(
                "imported \(report.imported.count) templates, skipped \(report.skipped.count)"
                    + (report.imported.isEmpty ? "" : "; use one: !meme \(report.imported[0]) top text | bottom text"))
        }
    }

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
            let media = try Template.media(dataDir, store)
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
            "backed up \(summary.databaseBytes) bytes of database to \(file) and \(summary.mediaFiles) "
                + "pictures to \(Backup.mediaCopy(of: file))/"
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
