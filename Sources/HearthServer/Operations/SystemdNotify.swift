import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness and watchdog protocol (`Type=notify`, `WatchdogSec=`): datagrams such as
/// `READY=1` to the socket in NOTIFY_SOCKET. Without that variable (not under systemd) it does
/// nothing. Written here rather than linking libsystemd: it is one `sendto`.
public struct SystemdNotify: Sendable {
    let socketPath: String?
    /// Half of WATCHDOG_USEC: how often to say the server is alive (nil: no watchdog asked for).
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends one state (e.g. "READY=1", "STOPPING=1", "WATCHDOG=1"); false when it could not.
    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let socketPath else { return false }
        // Non-blocking: when the manager does not read (its queue full), the state is dropped;
        // a blocking send would hold a thread of the server's async pool until it did.
        let fd = socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // "@name" is a socket in the abstract namespace: a leading NUL byte.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.enumerated() { raw[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let sent = state.utf8CString.withUnsafeBufferPointer { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text.baseAddress, text.count - 1, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }

    /// Says WATCHDOG=1 every half interval until cancelled, each time after `alive` has come
    /// back: a server whose core or event loops hang stops saying it, and systemd restarts it.
    /// A cancel that comes while `alive` runs sends nothing more: whoever cancels, then awaits
    /// the end, may say STOPPING=1 knowing no ping follows it.
    public func keepWatchdog(logger: Logger, alive: () async -> Void) async {
        guard let watchdogInterval, isActive else { return }
        while !Task.isCancelled {
            await alive()
            if Task.isCancelled { return }
            if !send("WATCHDOG=1") { logger.warning("systemd watchdog: could not notify") }
            try? await Task.sleep(for: watchdogInterval)
        }
    }
}
