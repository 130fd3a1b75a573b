import Foundation
import Testing

/// Waits until `condition` holds, looking again every few milliseconds: a test waits for the
/// event it needs, never for a guessed time. Past `timeout` seconds (generous, as
/// `TestClient.patience`: a wait that runs out is a failure, never a result) it records an issue
/// naming `what` and throws.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Double = TestClient.patience,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        guard Date() < deadline else {
            Issue.record("timed out waiting for \(what())", sourceLocation: sourceLocation)
            throw TimeoutError(description: "timed out waiting for \(what())")
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
