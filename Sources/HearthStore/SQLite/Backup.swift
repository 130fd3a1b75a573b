import Foundation
import GRDB

/// Backups and restores of a data directory: the database through SQLite's online backup
/// (a consistent snapshot while the server keeps writing), pictures as plain files (they
/// never change once written, so copying them after the snapshot is consistent too).
public enum Backup {
    public struct Summary: Sendable {
        public var databaseBytes: Int
        public var mediaFiles: Int
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Pictures of a backup at `file` live beside it in `file.media/`.
    public static func mediaCopy(of file: String) -> String { file + ".media" }
    /// The server secret (which keys the stored codes) lives beside it in `file.key`.
    public static func keyCopy(of file: String) -> String { file + ".key" }
    /// The secret's name in the data directory (`CodeHasher.fileName`).
    public static let keyFileName = "secret.key"

    /// Copies the database of `store` to a new file at `file` and its pictures to `file.media/`.
    public static func create(from store: SQLiteStore, mediaDirectory: String, to file: String) throws -> Summary {
        guard !FileManager.default.fileExists(atPath: file) else {
            throw Failure("\(file) exists; choose a new file name")
        }
        let target = try DatabaseQueue(path: file)
        try store.pool.backup(to: target)
        try target.close()
        let copied = try copyMissingFiles(from: mediaDirectory, to: mediaCopy(of: file))
        // Without the secret, the recovery and invite codes in the copy could never be checked.
        let key = ((store.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(keyFileName)
        if FileManager.default.fileExists(atPath: key) {
            try FileManager.default.copyItem(atPath: key, toPath: keyCopy(of: file))
        }
        // A backup holds what the data directory holds: private whatever the umask.
        try DataDirectory.tighten(file)
        try DataDirectory.tighten(keyCopy(of: file))
        try DataDirectory.tighten(mediaCopy(of: file))
        return Summary(databaseBytes: fileSize(file), mediaFiles: copied)
    }

    /// Replaces the database in `dataDirectory` with the backup at `file`, after checking the
    /// backup is a whole Hearth database. The replaced files are kept beside it, renamed
    /// with `.before-restore-TIME`. The server must be stopped (see `DataDirectoryLock`).
    /// Returns the name the old database was kept under, if there was one.
    public static func restore(from file: String, into dataDirectory: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: file) else { throw Failure("\(file) does not exist") }
        var readOnly = Configuration()
        readOnly.readonly = true
        let source: DatabaseQueue
        do { source = try DatabaseQueue(path: file, configuration: readOnly) } catch {
            throw Failure("\(file) is not an SQLite database")
        }
        let (integrity, isHearth) = try source.read { db -> (String, Bool) in
            (
                try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "",
                try db.tableExists("account") && db.tableExists("grdb_migrations")
            )
        }
        guard integrity == "ok" else {
            throw Failure("\(file) is damaged (integrity_check: \(integrity)); nothing was changed")
        }
        guard isHearth else { throw Failure("\(file) is not a Hearth database; nothing was changed") }

        try DataDirectory.secure(dataDirectory)
        let live = (dataDirectory as NSString).appendingPathComponent(SQLiteStore.fileName)
        var keptAs: String?
        if FileManager.default.fileExists(atPath: live) {
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            keptAs = live + ".before-restore-" + stamp
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: live + suffix) {
                try FileManager.default.moveItem(atPath: live + suffix, toPath: keptAs! + suffix)
            }
        }
        // The backup's secret goes with its database (an older backup without one keeps ours).
        if FileManager.default.fileExists(atPath: keyCopy(of: file)) {
            let key = (dataDirectory as NSString).appendingPathComponent(keyFileName)
            if FileManager.default.fileExists(atPath: key) {
                try FileManager.default.moveItem(atPath: key, toPath: (keptAs ?? key + ".before-restore") + ".key")
            }
            try FileManager.default.copyItem(atPath: keyCopy(of: file), toPath: key)
        }
        let target = try DatabaseQueue(path: live)
        try source.backup(to: target)
        try target.close()
        try source.close()
        _ = try copyMissingFiles(
            from: mediaCopy(of: file), to: (dataDirectory as NSString).appendingPathComponent("media"))
        try DataDirectory.secure(dataDirectory)
        return keptAs
    }

    /// Hard-links (or copies, across file systems) every file of `source` missing from `target`.
    static func copyMissingFiles(from source: String, to target: String) throws -> Int {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: source) else { return 0 }
        try fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        var copied = 0
        for name in names where !name.hasPrefix(".") {
            let from = (source as NSString).appendingPathComponent(name)
            let to = (target as NSString).appendingPathComponent(name)
            if fm.fileExists(atPath: to) { continue }
            if link(from, to) != 0 { try fm.copyItem(atPath: from, toPath: to) }
            copied += 1
        }
        return copied
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// Held by a running server on `DATA-DIR/hearth.lock` (flock), so a second server or a
/// restore cannot use the same data directory at once. The kernel drops it if the process dies.
public final class DataDirectoryLock: Sendable {
    private let fd: Int32

    public struct Busy: Error, CustomStringConvertible {
        public var description: String
    }

    public init(dataDirectory: String) throws {
        // Only made here if missing; `Store` tightens an existing one and logs it.
        try FileManager.default.createDirectory(
            atPath: dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: Int(DataDirectory.directoryMode)])
        let path = (dataDirectory as NSString).appendingPathComponent("hearth.lock")
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Busy(description: "cannot open \(path)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw Busy(description: "a Hearth server is running on \(dataDirectory); stop it first")
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
