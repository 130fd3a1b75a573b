import Logging
import NIOConcurrencyHelpers
import NIOSSL
import ServiceLifecycle
import UnixSignals

/// What reading the configuration again gave: the settings, and by name which of them changed
/// (taken at once) and which changed but wait for a restart (ports, data, database).
public struct ReloadedConfig: Sendable {
    public var config: ServerConfig
    public var changed: [String]
    public var needsRestart: [String]
    /// Called once the server has taken the new settings (not when it refused them).
    public var commit: @Sendable () -> Void

    public init(
        config: ServerConfig, changed: [String], needsRestart: [String], commit: @escaping @Sendable () -> Void = {}
    ) {
        (self.config, self.changed, self.needsRestart, self.commit) = (config, changed, needsRestart, commit)
    }
}

/// Reads the file (and environment, and the flags given at start) again; throws, naming the
/// problem, when the result is not valid: then nothing changes.
public typealias ConfigReloader = @Sendable () async throws -> ReloadedConfig

/// The certificate and key new TLS handshakes use; a reload swaps them, connections made
/// before keep theirs.
final class TLSPair: Sendable {
    private let current = NIOLockedValueBox<NIOSSLContextConfigurationOverride?>(nil)

    /// Reads both files; throws (changing nothing) when either is missing or not PEM.
    static func load(certificate: String, key: String) throws -> NIOSSLContextConfigurationOverride {
        var pair = NIOSSLContextConfigurationOverride()
        pair.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
        pair.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        return pair
    }

    func set(_ pair: NIOSSLContextConfigurationOverride) { current.withLockedValue { $0 = pair } }

    /// For `TLSConfiguration.sslContextCallback`: each handshake asks for the pair of the moment.
    var callback: NIOSSLContextCallback {
        { [current] _, promise in promise.succeed(current.withLockedValue { $0 } ?? .noChanges) }
    }
}

extension HearthServer {
    /// Returns once every event loop has run a task that took the core's lock: what the
    /// systemd watchdog waits for before each ping (a hang means no ping, then a restart).
    public func probe() async {
        for loop in group.makeIterator() {
            try? await loop.submit { [core] in core.chat.withLock { _ in } }.get()
        }
    }

    /// Reads the configuration again (SIGHUP, REHASH) and applies what may change live, one
    /// reload at a time (a REHASH and a SIGHUP together would otherwise race).
    /// Returns one line for the operator: what changed, what needs a restart, or why nothing did.
    public func reload() async -> String {
        let next = reloads.withLock { last -> Task<String, Never> in
            let previous = last
            let next = Task { [self] in
                _ = await previous?.value
                return await reloadNow()
            }
            last = next
            return next
        }
        return await next.value
    }

    private func reloadNow() async -> String {
        guard let reloader else { return "there is no configuration to reload" }
        let reloaded: ReloadedConfig
        do { reloaded = try await reloader() } catch {
            core.logger.warning("reload refused, nothing changed: \(error)")
            return "nothing changed: \(error)"
        }
        var (changed, needsRestart) = (reloaded.changed, reloaded.needsRestart)
        var new = reloaded.config
        if let cert = new.tlsCertificatePath, let key = new.tlsKeyPath, tlsListening {
            // Read again even when the paths stay: a renewed certificate keeps its name.
            do { tlsPair.set(try TLSPair.load(certificate: cert, key: key)) } catch {
                core.logger.warning("reload refused, nothing changed: TLS: \(error)")
                return "nothing changed: TLS certificate or key: \(error)"
            }
        } else {
            // Turning TLS on or off starts or stops listeners: that waits for a restart.
            let moving = ["tls-cert", "tls-key"].filter { changed.contains($0) }
            changed.removeAll { moving.contains($0) }
            needsRestart += moving.filter { !needsRestart.contains($0) }
            (new.tlsCertificatePath, new.tlsKeyPath) = (config.tlsCertificatePath, config.tlsKeyPath)
        }
        core.applyReload(new)
        reloaded.commit()
        var parts = [changed.isEmpty ? "reloaded, nothing changed" : "reloaded: " + changed.joined(separator: ", ")]
        if !needsRestart.isEmpty { parts.append("needs a restart: " + needsRestart.joined(separator: ", ")) }
        let outcome = parts.joined(separator: "; ")
        core.logger.notice("\(outcome)")
        return outcome
    }

    /// SIGHUP reloads, as systemd's `ExecReload=kill -HUP` expects.
    struct ReloadOnHangUp: Service {
        let server: HearthServer

        func run() async throws {
            let notify = SystemdNotify()
            for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
                notify.send("RELOADING=1")
                _ = await server.reload()
                notify.send("READY=1")
            }
        }
    }
}
