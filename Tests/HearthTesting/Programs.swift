import Foundation
import NIOConcurrencyHelpers
import Subprocess
import SystemPackage
import Testing

/// The programs tests run (`hearth`, the example bots, curl, ip), through swift-subprocess:
/// Foundation's `Process.run` can crash while the test process has many sockets open
/// (swift-corelibs-foundation#5472: an over-read while it lists /proc/self/fd).
public enum Programs {
    /// How a program ended and what it printed (standard output and error together).
    public struct Finished: Sendable {
        /// The exit code, or 128 + the signal that ended it, as a shell reports it.
        public let status: Int32
        public let output: String
    }

    /// A program that is still running, inside `whileRunning`.
    public final class Running: Sendable {
        let execution: Execution<NoInput, SequenceOutput, CombinedErrorOutput>
        private let printed = NIOLockedValueBox("")

        public init(_ execution: Execution<NoInput, SequenceOutput, CombinedErrorOutput>) { self.execution = execution }

        /// What it has printed so far.
        public var output: String { printed.withLockedValue { $0 } }

        /// Its process id.
        public var pid: Int32 { execution.processIdentifier.value }

        func append(_ text: String) { printed.withLockedValue { $0 += text } }

        private let closed = NIOLockedValueBox(false)
        /// Its output has closed: the program has ended.
        public var ended: Bool { closed.withLockedValue { $0 } }
        func end() { closed.withLockedValue { $0 = true } }

        /// Sends SIGTERM (nothing if it has already ended).
        public func terminate() { try? execution.send(signal: .terminate) }

        /// Sends SIGHUP (a server reads its configuration again).
        public func hangUp() { try? execution.send(signal: .init(rawValue: SIGHUP)) }

        /// Sends `signal` (SIGINT, say).
        public func send(_ signal: Int32) { try? execution.send(signal: .init(rawValue: signal)) }

        /// Sends SIGKILL: the program gets no chance to say goodbye.
        public func kill() { try? execution.send(signal: .kill) }
    }

    /// The most output a test keeps from one program.
    public static let maxOutputBytes = 4 << 20

    /// `arguments[0]` by path when it holds a slash, else looked up in PATH.
    public static func executable(_ name: String) -> Executable {
        name.contains("/") ? .path(FilePath(name)) : .name(name)
    }

    public static func status(_ termination: TerminationStatus) -> Int32 {
        switch termination {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
    }

    /// Runs a program to its end.
    public static func run(_ arguments: [String], in directory: String? = nil) async throws -> Finished {
        let result = try await Subprocess.run(
            executable(arguments[0]), arguments: Arguments(Array(arguments.dropFirst())),
            workingDirectory: directory.map { FilePath($0) },
            output: .string(limit: maxOutputBytes), error: .combinedWithOutput)
        return Finished(status: status(result.terminationStatus), output: result.standardOutput)
    }

    /// Starts a program, runs `body` while it runs, then stops it with SIGTERM (if it has not
    /// ended by itself) and waits for it to end.
    public static func whileRunning<T: Sendable>(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        _ body: (Running) async throws -> T
    ) async throws -> (T, Finished) {
        var updates: [Environment.Key: String?] = [:]
        for (name, value) in environment { updates[Environment.Key(rawValue: name)!] = value }
        let result = try await Subprocess.run(
            executable(arguments[0]), arguments: Arguments(Array(arguments.dropFirst())),
            environment: .inherit.updating(updates),
            workingDirectory: directory.map { FilePath($0) },
            input: .none, output: .sequence, error: .combinedWithOutput
        ) { execution in
            let running = Running(execution)
            async let reading: Void = {
                for try await chunk in execution.standardOutput {
                    running.append(chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
                }
                running.end()
            }()
            let value: Result<T, any Error>
            do { value = .success(try await body(running)) } catch { value = .failure(error) }
            running.terminate()
            try await reading
            return (try value.get(), running.output)
        }
        let (value, output) = result.closureResult
        return (value, Finished(status: status(result.terminationStatus), output: output))
    }

    /// The `hearth` executable next to the test bundle.
    public static func hearthBinary() -> String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0])
        while url.path != "/" {
            let candidate = url.deletingLastPathComponent().appendingPathComponent("hearth")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            url = url.deletingLastPathComponent()
        }
        return ".build/debug/hearth"
    }

    /// Runs the `hearth` executable to its end; on the server tests' PostgreSQL, with the
    /// database of the data directory it names.
    public static func hearth(_ arguments: [String]) async throws -> Finished {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--data-dir"), index + 1 < arguments.count,
            let url = try? String(
                contentsOfFile: arguments[index + 1] + "/.test-database-url", encoding: .utf8)
        {
            arguments += ["--database", url]
        }
        return try await run([hearthBinary()] + arguments)
    }

    /// Runs `hearth serve` on `dataDirectory` with free loopback ports (and `extra` flags) while
    /// `body` runs with it and its IRC port; then stops it with SIGTERM and says how it ended.
    /// `program`: another path to the executable (a link to it, say).
    public static func serving<T: Sendable>(
        dataDirectory: String, _ extra: [String] = [], environment: [String: String] = [:],
        program: String = hearthBinary(), _ body: (Running, Int) async throws -> T
    ) async throws -> (T, Finished) {
        let arguments = [
            program, "serve", "--host", "127.0.0.1", "--irc-port", "0", "--http-port", "0",
            "--data-dir", dataDirectory,
        ]
        return try await whileRunning(arguments + extra, environment: environment) { running in
            var port: Int?
            for _ in 0..<3000 {
                if let range = running.output.range(of: "nc localhost ") {
                    port = Int(running.output[range.upperBound...].prefix { $0.isNumber })
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            return try await body(running, try #require(port, "server did not report its port: \(running.output)"))
        }
    }
}
