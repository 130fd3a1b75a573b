import NIOConcurrencyHelpers
import Subprocess
import SystemPackage

/// The programs tests run (`hearth`, the example bots, curl, ip), through swift-subprocess:
/// Foundation's `Process.run` can crash while the test process has many sockets open
/// (swift-corelibs-foundation#5472: an over-read while it lists /proc/self/fd).
enum Programs {
    /// How a program ended and what it printed (standard output and error together).
    struct Finished: Sendable {
        /// The exit code, or 128 + the signal that ended it, as a shell reports it.
        let status: Int32
        let output: String
    }

    /// A program that is still running, inside `whileRunning`.
    final class Running: Sendable {
        let execution: Execution<NoInput, SequenceOutput, CombinedErrorOutput>
        private let printed = NIOLockedValueBox("")

        init(_ execution: Execution<NoInput, SequenceOutput, CombinedErrorOutput>) { self.execution = execution }

        /// What it has printed so far.
        var output: String { printed.withLockedValue { $0 } }

        func append(_ text: String) { printed.withLockedValue { $0 += text } }

        /// Sends SIGTERM (nothing if it has already ended).
        func terminate() { try? execution.send(signal: .terminate) }
    }

    /// The most output a test keeps from one program.
    static let maxOutputBytes = 4 << 20

    /// `arguments[0]` by path when it holds a slash, else looked up in PATH.
    static func executable(_ name: String) -> Executable {
        name.contains("/") ? .path(FilePath(name)) : .name(name)
    }

    static func status(_ termination: TerminationStatus) -> Int32 {
        switch termination {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
    }

    /// Runs a program to its end.
    static func run(_ arguments: [String], in directory: String? = nil) async throws -> Finished {
        let result = try await Subprocess.run(
            executable(arguments[0]), arguments: Arguments(Array(arguments.dropFirst())),
            workingDirectory: directory.map { FilePath($0) },
            output: .string(limit: maxOutputBytes), error: .combinedWithOutput)
        return Finished(status: status(result.terminationStatus), output: result.standardOutput)
    }

    /// Starts a program, runs `body` while it runs, then stops it with SIGTERM (if it has not
    /// ended by itself) and waits for it to end.
    static func whileRunning<T: Sendable>(
        _ arguments: [String], in directory: String? = nil, _ body: (Running) async throws -> T
    ) async throws -> (T, Finished) {
        let result = try await Subprocess.run(
            executable(arguments[0]), arguments: Arguments(Array(arguments.dropFirst())),
            workingDirectory: directory.map { FilePath($0) },
            input: .none, output: .sequence, error: .combinedWithOutput
        ) { execution in
            let running = Running(execution)
            async let reading: Void = {
                for try await chunk in execution.standardOutput {
                    running.append(chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
                }
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
}
