import HearthStore
import Testing

@Suite struct DatabaseURLTests {
    @Test func aFullURLAndItsDefaults() throws {
        #expect(
            try DatabaseURL(parsing: "postgres://hearth:s%40cret@db.example:5433/chat")
                == DatabaseURL(user: "hearth", password: "s@cret", host: "db.example", port: 5433, database: "chat"))
        let short = try DatabaseURL(parsing: "postgresql://hearth@127.0.0.1/hearth")
        #expect(short.port == DatabaseURL.defaultPort && short.password == nil)
        // Logs never show the password.
        #expect(!String(describing: try DatabaseURL(parsing: "postgres://u:pw@h/d")).contains("pw"))
    }

    @Test(arguments: [
        ("not a url at all", "is not a database URL"),
        ("mysql://u@h/d", "must start with postgres://"),
        ("postgres:///d", "names no host"),
        ("postgres://h/d", "names no user"),
        ("postgres://u@h", "names no database"),
        ("postgres://u@h/", "names no database"),
        ("postgres://u@h:0/d", "is not between 1 and 65535"),
    ])
    func eachMistakeGetsOneClearLine(url: String, problem: String) {
        #expect {
            _ = try DatabaseURL(parsing: url)
        } throws: { error in
            "\(error)".contains(problem) && !"\(error)".contains("\n")
        }
    }
}

extension DatabaseURLTests {
    /// A URL that does not parse is not repeated: it may hold the password.
    @Test func anUnparsableURLIsNotEchoed() {
        #expect {
            _ = try DatabaseURL(parsing: "postgres://u:s3cr3t-pw@ not a host/d")
        } throws: { error in
            "\(error)".contains("not a database URL") && !"\(error)".contains("s3cr3t-pw")
        }
    }
}
