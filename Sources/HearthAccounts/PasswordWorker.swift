import Foundation
import HearthCrypto
import HearthStore
import Logging
import NIOPosix
import Synchronization

/// Argon2id hashing and verifying on a small dedicated thread pool, so at most
/// `threads` hashes (64 MiB each) run at once and no event loop ever waits.
public final class PasswordWorker: Sendable {
    public let pool: NIOThreadPool
    public let cost: PasswordHash.Cost
    /// A hash of a random password at the same cost, verified against for unknown names
    /// so that the time taken does not reveal which names exist.
    public let dummyHash: String
    /// Jobs asked for and not finished (the metrics' queue length).
    private let inFlight = Atomic<Int>(0)
    public var jobsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Runs one job on the pool, counted while it waits and runs.
    private func run<T: Sendable>(_ job: @escaping @Sendable () throws -> T) async throws -> T {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        return try await pool.runIfActive(job)
    }

    public init(threads: Int = 2, cost: PasswordHash.Cost = .interactive) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        self.cost = cost
        dummyHash = PasswordHash.hash(Sodium.hex(Sodium.randomBytes(16)), cost: cost)!
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let result = try await run { PasswordHash.hash(password, cost: cost) }
        guard let result else { throw AccountError("could not hash the password (out of memory?); try again") }
        return result
    }

    /// SCRAM-SHA-256 credentials with a fresh salt; PBKDF2 is slow too, so it runs here.
    public func scramCredentials(_ password: String) async throws -> ScramCredentials {
        let iterations = cost.scramIterations
        return try await run { try Scram.credentials(password: password, iterations: iterations) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await run { PasswordHash.verify(password, hash: hash) }
    }

    public func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
