import ArgumentParser
import Foundation
import HearthConfig

/// `hearth config check FILE` and `hearth config example`.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check a configuration file, or print one with every key.",
        subcommands: [Check.self, Example.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a configuration file: each wrong key with its line, and a non-zero exit.")
        @Argument(help: "The YAML file.") var file: String

        func run() async throws {
            // The file alone: the environment of this shell is not the server's.
            do {
                let settings = try await Settings.read(flags: [:], environment: [:], file: file)
                _ = try ServeSettings(settings, environment: [:])
                let given = settings.sources.values.filter { $0 != "default" }.count
                print("\(file): OK (\(given) of \(ServeKeys.all.count) keys set, the rest default)")
            } catch let problems as Settings.Problems {
                FileHandle.standardError.write(Data((problems.description + "\n").utf8))
                throw ExitCode(1)
            }
        }
    }

    struct Example: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a configuration file with every key, its default and what it does.")
        func run() { print(ConfigExample.text, terminator: "") }
    }
}
