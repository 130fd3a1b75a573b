import Foundation

/// The data directory holds emails, phone numbers, private messages, family posts and
/// places: only the user the server runs as may read it, whatever the umask says.
public enum DataDirectory {
    public static let directoryMode: mode_t = 0o700
    public static let fileMode: mode_t = 0o600

    /// Creates `path` (0700) or tightens it and everything in it (directories 0700, files
    /// 0600), and sets the process umask to 077 so every file made later — SQLite's WAL and
    /// shared memory, pictures, backups — is private too. Returns what was tightened.
    @discardableResult
    public static func secure(_ path: String) throws -> [String] {
        umask(0o077)
        let fm = FileManager.default
        if !fm.fileExists(atPath: path) {
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        var tightened: [String] = []
        if try tighten(path) { tightened.append(path) }
        for name in fm.enumerator(atPath: path)?.compactMap({ $0 as? String }) ?? [] {
            let child = (path as NSString).appendingPathComponent(name)
            if try tighten(child) { tightened.append(child) }
        }
        return tightened
    }

    /// Makes one file 0600 or one directory 0700 (symbolic links are left alone); true when
    /// its mode was wider.
    @discardableResult
    public static func tighten(_ path: String) throws -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFDIR || kind == S_IFREG else { return false }
        let wanted = kind == S_IFDIR ? directoryMode : fileMode
        guard info.st_mode & 0o7777 != wanted else { return false }
        guard chmod(path, wanted) == 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        return info.st_mode & 0o077 != 0
    }
}
