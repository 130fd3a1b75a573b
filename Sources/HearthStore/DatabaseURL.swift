import Foundation

/// Where a PostgreSQL Hearth keeps its data: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too; user and password percent-encoded). Parsing never touches the network.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    public static let defaultPort = 5432

    public init(user: String, password: String?, host: String, port: Int = defaultPort, database: String) {
        (self.user, self.password, self.host, self.port, self.database) = (user, password, host, port, database)
    }

    /// Why a URL is not one Hearth can use, in one line for the operator.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(parsing text: String) throws(Problem) {
        let example = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            // Not echoed: it may hold a password.
            throw Problem(description: "that is not a database URL; use \(example)")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw Problem(
                description: "the database URL must start with postgres:// (not \(scheme)://); use \(example)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Problem(description: "the database URL names no host; use \(example)")
        }
        guard let user = components.user.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw Problem(description: "the database URL names no user; use \(example)")
        }
        let database = String(components.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw Problem(description: "the database URL names no database (…/DATABASE at the end); use \(example)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw Problem(description: "the database port \(port) is not between 1 and 65535")
        }
        self.init(
            user: user, password: components.password.flatMap { $0.removingPercentEncoding }, host: host,
            port: components.port ?? Self.defaultPort, database: database)
    }

    /// The URL without its password, for logs and messages.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
