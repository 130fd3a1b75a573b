import Foundation
import HearthConfig
import HearthServer
import HearthTesting
import Testing

/// `hearth serve`'s settings: the file, the environment and flags, in that order of weight;
/// every key checked; the example file valid as it is and with every key set.
@Suite struct ConfigurationTests {
    static func file(_ text: String) throws -> String {
        let path = TestServer.tempDirectory() + "/hearth.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func flagsOutweighTheEnvironmentWhichOutweighsTheFileWhichOutweighsTheDefault() async throws {
        let path = try Self.file("irc-port: 7001\nhttp-port: 7002\ntls-port: 7003\nnetwork: FromFile\n")
        let settings = try await Settings.read(
            flags: ["irc-port": .int(9001)],
            environment: ["HEARTH_IRC_PORT": "8001", "HEARTH_HTTP_PORT": "8002"], file: path)
        #expect(settings["irc-port"] == .int(9001))
        #expect(settings.sources["irc-port"] == "--irc-port")
        #expect(settings["http-port"] == .int(8002))
        #expect(settings.sources["http-port"] == "HEARTH_HTTP_PORT")
        #expect(settings["tls-port"] == .int(7003))
        #expect(settings.sources["tls-port"] == "\(path):3")
        #expect(settings["https-port"] == .int(8443))
        #expect(settings.sources["https-port"] == "default")
        let serve = try ServeSettings(settings, environment: [:])
        #expect(serve.server.ircPort == 9001 && serve.server.httpPort == 8002 && serve.server.tlsPort == 7003)
        #expect(serve.server.networkName == "FromFile")
    }

    @Test func listsComeFromYAMLListsRepeatedFlagsOrCommas() async throws {
        let path = try Self.file("proxy-from: [10.0.0.1, 10.0.0.2]\noper: solo:pw\n")
        let fromFile = try await Settings.read(flags: [:], environment: [:], file: path)
        #expect(fromFile["proxy-from"] == .strings(["10.0.0.1", "10.0.0.2"]))
        #expect(fromFile["oper"] == .strings(["solo:pw"]))
        let fromEnvironment = try await Settings.read(
            flags: [:], environment: ["HEARTH_PROXY_FROM": "10.0.0.3,10.0.0.4"], file: path)
        #expect(fromEnvironment["proxy-from"] == .strings(["10.0.0.3", "10.0.0.4"]))
    }

    /// Each wrong key is named with its line (or variable), all at once; nothing is used.
    @Test func wrongKeysAreNamedWithTheirLines() async throws {
        let path = try Self.file(
            """
            irc-port: 7000
            irc_port: 1
            log-level: loud
            flood-burst: many
            http-port: 99999
            network: {nested: map}
            oper: [nocolon]
            http-proxy-from: [10.0.0.5, proxy.example]
            http-proxy-header: x-real-ip
            """)
        let problems = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: ["HEARTH_TLS_PORT": "abc"], file: path)
        }
        let text = problems.description
        #expect(text.contains("\(path):2: unknown key irc_port (did you mean irc-port?)"), "\(text)")
        #expect(text.contains("\(path):3: log-level: must be trace, debug"), "\(text)")
        #expect(text.contains("\(path):4: flood-burst: expected a number"), "\(text)")
        #expect(text.contains("\(path):5: http-port: must be 0 to 65535 (not 99999)"), "\(text)")
        #expect(text.contains("\(path):6: network: expected text"), "\(text)")
        #expect(text.contains("\(path):7: oper: must be each one NAME:PASSWORD"), "\(text)")
        #expect(text.contains("\(path):8: http-proxy-from: must be IP addresses"), "\(text)")
        #expect(text.contains("\(path):9: http-proxy-header: must be x-forwarded-for or forwarded"), "\(text)")
        #expect(text.contains("HEARTH_TLS_PORT: tls-port: expected a whole number"), "\(text)")
        #expect(problems.list.count == 9, "\(text)")
    }

    /// Values that would stall or crash the server are refused with a range, not used.
    @Test func valuesThatWouldStallTheServerAreRefused() async throws {
        let path = try Self.file("flood-unregistered-burst: 0.5\nflood-rate: 0.000000001\npage-cache: 1e300\n")
        let problems = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: ["HEARTH_FLOOD_BOT_RATE": "-1e300"], file: path)
        }
        let text = problems.description
        #expect(text.contains("flood-unregistered-burst: must be 1 to 10000 lines (not 0.5)"), "\(text)")
        #expect(text.contains("flood-rate: must be 0.01 to 10000 lines per second"), "\(text)")
        #expect(text.contains("page-cache: must be 0 to 60 seconds (not 1e+300)"), "\(text)")
        #expect(text.contains("HEARTH_FLOOD_BOT_RATE: flood-bot-rate: must be 0.01"), "\(text)")
    }

    @Test func secretsAreNotRepeatedInErrors() async throws {
        let path = try Self.file("oper: [hunter2-no-colon]\n")
        let problems = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: [:], file: path)
        }
        #expect(!problems.description.contains("hunter2"), "\(problems)")
    }

    @Test func brokenYAMLAndDuplicateKeysSayWhere() async throws {
        let broken = try Self.file("irc-port: 1\nnetwork: [unclosed\n")
        let first = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: [:], file: broken)
        }
        #expect(first.description.hasPrefix("\(broken):3: not valid YAML"), "\(first)")
        let twice = try Self.file("irc-port: 1\nhttp-port: 2\nirc-port: 3\n")
        let second = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: [:], file: twice)
        }
        #expect(second.description.contains("a key given twice: irc-port"), "\(second)")
        let missing = try await #require(throws: Settings.Problems.self) {
            try await Settings.read(flags: [:], environment: [:], file: "/nonexistent/hearth.yaml")
        }
        #expect(missing.description.contains("/nonexistent/hearth.yaml: cannot read the file"), "\(missing)")
    }

    /// The example is valid as printed (all commented), and with every line uncommented it
    /// sets every key to its default.
    @Test func theExampleFileIsValidWithEveryKeySet() async throws {
        let example = ConfigExample.text
        let empty = try await Settings.read(flags: [:], environment: [:], file: try Self.file(example))
        #expect(empty.sources.values.allSatisfy { $0 == "default" })
        var uncommented: [String] = []
        for line in example.split(separator: "\n") {
            let text = String(line)
            if let key = ServeKeys.all.first(where: { text.hasPrefix("# \($0.name): ") }), key.fallback != nil {
                uncommented.append(String(text.dropFirst(2)))
            }
        }
        #expect(uncommented.count == ServeKeys.all.filter { $0.fallback != nil }.count)
        let full = try await Settings.read(
            flags: [:], environment: [:], file: try Self.file(uncommented.joined(separator: "\n")))
        for key in ServeKeys.all where key.fallback != nil {
            #expect(full[key.name] == key.fallback, "\(key.name)")
            #expect(full.sources[key.name] != "default", "\(key.name) was not in the example")
        }
    }

    @Test func everyKeyIsAlsoAFlagOfServe() async throws {
        let help = try await Programs.run([Programs.hearthBinary(), "serve", "--help"])
        for key in ServeKeys.all {
            let flag = key.kind == .bool ? "--\(key.name)/--no-\(key.name)" : "--\(key.name)"
            #expect(help.output.contains(flag), "\(flag) is missing from hearth serve --help")
        }
    }

    @Test func configCheckNamesEachProblemAndExitsNonZero() async throws {
        let bad = try Self.file("irc-port: many\nmotd: hello\n")
        let checked = try await Programs.run([Programs.hearthBinary(), "config", "check", bad])
        #expect(checked.status == 1)
        #expect(checked.output.contains("\(bad):2: unknown key motd"), "\(checked.output)")
        #expect(checked.output.contains("\(bad):1: irc-port: expected a whole number"), "\(checked.output)")
        let good = try Self.file("irc-port: 7000\nlog-format: json\n")
        let fine = try await Programs.run([Programs.hearthBinary(), "config", "check", good])
        #expect(fine.status == 0 && fine.output.contains("OK (2 of"), "\(fine.output)")
        let example = try await Programs.run([Programs.hearthBinary(), "config", "example"])
        #expect(example.status == 0 && example.output.contains("# irc-port: 6667"))
    }

    /// A server started with a bad file does not start, and says why (and a bad variable too).
    @Test func aServerWithABadFileDoesNotStart() async throws {
        let bad = try Self.file("irc-prot: 7000\n")
        let refused = try await Programs.run([
            Programs.hearthBinary(), "serve", "--config", bad, "--data-dir", TestServer.tempDirectory(),
        ])
        #expect(refused.status != 0)
        #expect(refused.output.contains("unknown key irc-prot (did you mean irc-port?)"), "\(refused.output)")
    }

    @Test func versionIsPrinted() async throws {
        let version = try await Programs.run([Programs.hearthBinary(), "--version"])
        #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == HearthVersion.number)
    }
}

extension ConfigurationTests {
    /// docs/CONFIGURATION.md's table names every key (and no key that is gone).
    @Test func everyKeyIsDocumented() throws {
        let doc = try String(
            contentsOfFile: BotScriptTests.repo.path + "/docs/CONFIGURATION.md", encoding: .utf8)
        for key in ServeKeys.all {
            #expect(doc.contains("| `\(key.name)` · `\(key.environmentName)` |"), "\(key.name) is not documented")
        }
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("` · `HEARTH_") }
        #expect(rows.count == ServeKeys.all.count)
    }
}

extension ConfigurationTests {
    /// The MOTD file: at most `maxMotdLines` lines of at most `maxMotdLineBytes` bytes each
    /// (one IRC line), cut between characters; a missing file named by the settings is an error.
    @Test func theMotdFileIsCutAtItsLimits() async throws {
        let dir = TestServer.tempDirectory()
        let long = String(repeating: "é", count: ServeSettings.maxMotdLineBytes)  // 2 bytes each
        let text = ([long] + (1...ServeSettings.maxMotdLines + 50).map { "line \($0)" }).joined(separator: "\n")
        try text.write(toFile: dir + "/motd", atomically: true, encoding: .utf8)
        let settings = try await Settings.read(
            flags: ["motd-file": .string(dir + "/motd")], environment: [:], file: nil)
        let motd = try ServeSettings(settings, environment: [:]).server.motd
        #expect(motd.count == ServeSettings.maxMotdLines)
        #expect(motd[0] == String(repeating: "é", count: ServeSettings.maxMotdLineBytes / 2))
        #expect(motd.allSatisfy { $0.utf8.count <= ServeSettings.maxMotdLineBytes })
        #expect(motd.last == "line \(ServeSettings.maxMotdLines - 1)")
        let exactly = try await Settings.read(
            flags: ["motd-file": .string(dir + "/nothing-here")], environment: [:], file: nil)
        #expect(throws: Settings.Problems.self) { try ServeSettings(exactly, environment: [:]) }
        // Without a file named, DATA-DIR/motd when present, else the built-in welcome.
        let plain = try await Settings.read(flags: ["data-dir": .string(dir)], environment: [:], file: nil)
        #expect(try ServeSettings(plain, environment: [:]).server.motd.first == motd.first)
    }
}

extension ConfigurationTests {
    /// Every flag of `hearth serve` reaches the settings (a flag declared but not passed on
    /// would be ignored without a word): each one given, `--print-settings` names it as the source.
    @Test func everyFlagIsPassedOn() async throws {
        let motd = TestServer.tempDirectory() + "/motd"
        try "hello".write(toFile: motd, atomically: true, encoding: .utf8)
        var arguments = [Programs.hearthBinary(), "serve", "--print-settings"]
        for key in ServeKeys.all {
            switch key.kind {
            case .bool: arguments.append("--no-\(key.name)")
            case .int: arguments += ["--\(key.name)", key.name.hasSuffix("port") ? "7" : "3"]
            case .double: arguments += ["--\(key.name)", "2"]
            case .string: arguments += ["--\(key.name)", key.name == "motd-file" ? motd : Self.sample(key.name)]
            case .strings: arguments += ["--\(key.name)", key.name == "oper" ? "a:b" : "10.0.0.1"]
            }
        }
        let printed = try await Programs.run(arguments)
        #expect(printed.status == 0, "\(printed.output)")
        for key in ServeKeys.all {
            #expect(printed.output.contains("\n\(key.name): ") || printed.output.hasPrefix("\(key.name): "))
            #expect(printed.output.contains("# --\(key.name)\n"), "--\(key.name) did not reach the settings")
        }
        #expect(printed.output.contains("server-password: (secret)  # --server-password"))
    }

    /// A value each string key accepts.
    static func sample(_ key: String) -> String {
        switch key {
        case "log-level": "debug"
        case "log-format": "json"
        case "io": "epoll"
        case "http-proxy-header": "forwarded"
        case "database": "postgres://u@h/d"
        case "node": "n1"
        case "tls-cert", "tls-key", "fortunes": "/nonexistent/\(key)"
        default: "x"
        }
    }
}
