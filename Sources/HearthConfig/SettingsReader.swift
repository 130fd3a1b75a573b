import Configuration
import Foundation
import SystemPackage

/// `hearth serve`'s settings from every source, by weight: flags given on the command line,
/// then HEARTH_… environment variables, then the configuration file, then the defaults.
public struct Settings: Sendable {
    /// Every key with a value (given or default); a key without one is unset.
    public var values: [String: SettingValue]
    /// Where each value came from: "--irc-port", "HEARTH_IRC_PORT", "FILE:LINE" or "default".
    public var sources: [String: String]

    public subscript(_ name: String) -> SettingValue? { values[name] }

    /// Every problem found, one per line; nothing is used when there is one.
    public struct Problems: Error, CustomStringConvertible {
        public var list: [String]
        public var description: String { list.joined(separator: "\n") }
    }

    /// Reads and checks everything; throws `Problems` naming each wrong key and where it is.
    public static func read(
        flags: [String: SettingValue], environment: [String: String], file: String?
    ) async throws -> Settings {
        var problems: [String] = []
        var configFile: ConfigFile?
        var fileProvider: (any ConfigProvider)?
        if let file {
            do {
                let (checked, found) = try ConfigFile.read(file)
                configFile = checked
                problems += found.map(\.description)
                // A file of comments only is valid (swift-configuration wants a mapping).
                if !checked.lines.isEmpty {
                    fileProvider = try await FileProvider<YAMLSnapshot>(filePath: FilePath(file))
                }
            } catch let problem as ConfigFile.Problem {
                throw Problems(list: [problem.description])
            } catch {
                throw Problems(list: ["\(file): \(error)"])
            }
        }
        // Given flags are checked by ArgumentParser's types already; they go first.
        let given = InMemoryProvider(
            name: "flags",
            values: Dictionary(uniqueKeysWithValues: flags.map { (AbsoluteConfigKey([$0.key]), $0.value.config) }))
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
            .prefixKeys(with: "hearth")
        let reader = ConfigReader(providers: [given, environmentProvider] + (fileProvider.map { [$0] } ?? []))
        var settings = Settings(values: [:], sources: [:])
        for key in ServeKeys.all {
            let source: String
            if flags[key.name] != nil {
                source = "--\(key.name)"
            } else if environment[key.environmentName] != nil {
                source = key.environmentName
            } else if let configFile, let line = configFile.lines[key.name] {
                source = "\(configFile.path):\(line)"
            } else {
                if let fallback = key.fallback {
                    (settings.values[key.name], settings.sources[key.name]) = (fallback, "default")
                }
                continue
            }
            guard let value = key.read(from: reader) else {
                problems.append("\(source): \(key.name): expected \(key.kind.rawValue)")
                continue
            }
            if let problem = key.check(value) {
                let shown = key.secret ? "" : " (not \(value))"
                problems.append("\(source): \(key.name): must be \(problem)\(shown)")
                continue
            }
            (settings.values[key.name], settings.sources[key.name]) = (value, source)
        }
        if !problems.isEmpty { throw Problems(list: Self.ordered(problems, file: file)) }
        return settings
    }

    /// `key: value  # source` for every key, secrets hidden (`hearth serve --print-settings`).
    public var listing: String {
        ServeKeys.all.map { key in
            let value = values[key.name].map { key.secret ? "(secret)" : "\($0)" } ?? "(unset)"
            return "\(key.name): \(value)  # \(sources[key.name] ?? "unset")\n"
        }.joined()
    }

    /// Each problem once; the file's by line, after those of flags and variables.
    static func ordered(_ problems: [String], file: String?) -> [String] {
        var seen = Set<String>()
        let unique = problems.filter { seen.insert($0).inserted }
        func line(_ problem: String) -> Int {
            guard let file, problem.hasPrefix(file + ":") else { return 0 }
            return Int(problem.dropFirst(file.count + 1).prefix { $0.isNumber }) ?? 0
        }
        return unique.enumerated().sorted { (line($0.element), $0.offset) < (line($1.element), $1.offset) }.map(
            \.element)
    }

    /// These settings, but with `running`'s values for the keys only a restart changes.
    public func keepingRestartKeys(of running: Settings) -> Settings {
        var kept = self
        for key in ServeKeys.all where key.reload == .restart {
            kept.values[key.name] = running.values[key.name]
            kept.sources[key.name] = running.sources[key.name]
        }
        return kept
    }

    /// The keys whose values differ from `other`'s, split by when a change takes effect.
    public func changes(from other: Settings) -> (live: [String], restart: [String]) {
        let changed = ServeKeys.all.filter { values[$0.name] != other.values[$0.name] }
        return (changed.filter { $0.reload == .live }.map(\.name), changed.filter { $0.reload == .restart }.map(\.name))
    }
}

extension SettingKey {
    /// The value from the first source that has one; nil when it is not of this key's kind.
    func read(from reader: ConfigReader) -> SettingValue? {
        let key = ConfigKey(name)
        do {
            switch kind {
            case .string: return .string(try reader.requiredString(forKey: key, isSecret: secret))
            case .int: return .int(try reader.requiredInt(forKey: key, isSecret: secret))
            case .double: return .double(try reader.requiredDouble(forKey: key, isSecret: secret))
            case .bool: return .bool(try reader.requiredBool(forKey: key, isSecret: secret))
            case .strings:
                // One value where a list is expected is a list of one.
                if let list = try? reader.requiredStringArray(forKey: key, isSecret: secret) { return .strings(list) }
                return .strings([try reader.requiredString(forKey: key, isSecret: secret)])
            }
        } catch {
            return nil
        }
    }
}

extension SettingValue {
    var config: ConfigValue {
        switch self {
        case .string(let v): ConfigValue(.string(v), isSecret: false)
        case .int(let v): ConfigValue(.int(v), isSecret: false)
        case .double(let v): ConfigValue(.double(v), isSecret: false)
        case .bool(let v): ConfigValue(.bool(v), isSecret: false)
        case .strings(let v): ConfigValue(.stringArray(v), isSecret: false)
        }
    }
}
