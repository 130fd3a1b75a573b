import Foundation
import HTTPTypes
import HearthAccounts
import HearthKit
import Hummingbird
import NIOCore
import Synchronization

extension WebLimits {
    /// Previews one account may ask for a minute (a typist's debounced preview is about one a
    /// second); past it the answer is 429 until the minute is over.
    static let previewsPerMinute = 120
    /// Previews kept for asking again (a caption typed back), at most this many and bytes.
    static let previewCacheEntries = 128
    static let previewCacheBytes = 16 * 1024 * 1024
    /// Pictures one account may upload from the web in an hour.
    static let uploadsPerHour = 60
}

/// The pictures apps draw for their pages (`WebPicture`, the meme maker's preview): signed-in
/// viewers only, each within `WebLimits.previewsPerMinute`, recent answers kept in a bounded cache.
struct WebPictureRoutes {
    let routes: WebRoutes
    var limit: WindowLimit { routes.shared.previews }
    var cache: PictureCache { routes.shared.pictures }

    func add(to router: Router<HearthRequestContext>) {
        for picture in routes.core.bot.apps.flatMap(\.pictures) {
            router.get(RouterPath(picture.path)) { request, context in try await draw(picture, request, context) }
        }
    }

    func draw(_ picture: WebPicture, _ request: Request, _ context: HearthRequestContext) async throws -> Response {
        guard let (viewer, _) = await routes.viewer(request) else {
            return MediaRoutes.text(.unauthorized, "Sign in to see previews.")
        }
        guard limit.allow(viewer.id) else {
            return MediaRoutes.text(
                .tooManyRequests, "Too many previews: at most \(WebLimits.previewsPerMinute) a minute.",
                headers: [.retryAfter: "60"])
        }
        let key = "\(viewer.id) \(request.uri.description)"
        let drawn: WebPicture.Drawn
        if let kept = cache.get(key) {
            drawn = kept
        } else {
            let web = WebRequest(
                parameters: routes.parameters(picture.path, context), query: routes.query(request), viewer: viewer,
                services: routes.services, route: picture.path)
            do {
                drawn = try await picture.draw(web)
            } catch let error as BotError {
                return MediaRoutes.text(.badRequest, error.message)
            } catch let refusal as WebRefusal {
                let (status, _, content) = routes.problem(refusal, path: request.uri.path)
                return MediaRoutes.text(status, content.summary)
            }
            cache.put(key, drawn)
        }
        let headers: HTTPFields = [.contentType: drawn.contentType, .cacheControl: "private, max-age=300"]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: drawn.bytes)))
    }
}

/// At most `count` events per key in a window that starts with the key's first event, on the
/// server's clock (a test's clock stands still, so a slow machine cannot end a window early).
final class WindowLimit: Sendable {
    let count: Int
    let window: TimeInterval
    let clock: HearthClock
    private let windows = Mutex<[Int64: (start: Date, used: Int)]>([:])
    /// Keys kept before the ended windows are swept out.
    static let sweepAt = 10_000

    init(count: Int, window: Duration, clock: HearthClock = .system) {
        (self.count, self.window, self.clock) = (count, TimeInterval(window.components.seconds), clock)
    }

    /// Counts one event for `key`: false when its window is full.
    func allow(_ key: Int64) -> Bool {
        let now = clock.now()
        return windows.withLock { windows in
            if windows.count >= Self.sweepAt {
                windows = windows.filter { now.timeIntervalSince($0.value.start) < window }
            }
            var entry = windows[key] ?? (now, 0)
            if now.timeIntervalSince(entry.start) >= window { entry = (now, 0) }
            guard entry.used < count else { return false }
            entry.used += 1
            windows[key] = entry
            return true
        }
    }
}

/// Drawn pictures by key, the least recently used dropped past `entries` or `bytes`.
final class PictureCache: Sendable {
    let entries: Int
    let bytes: Int
    private struct State {
        var kept: [String: (picture: WebPicture.Drawn, used: UInt64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
    }
    private let state = Mutex(State())

    init(entries: Int, bytes: Int) { (self.entries, self.bytes) = (entries, bytes) }

    func get(_ key: String) -> WebPicture.Drawn? {
        state.withLock { state in
            guard let entry = state.kept[key] else { return nil }
            state.tick += 1
            state.kept[key]!.used = state.tick
            return entry.picture
        }
    }

    func put(_ key: String, _ picture: WebPicture.Drawn) {
        guard picture.bytes.count <= bytes else { return }
        state.withLock { state in
            state.tick += 1
            if let old = state.kept.updateValue((picture, state.tick), forKey: key) {
                state.bytes -= old.picture.bytes.count
            }
            state.bytes += picture.bytes.count
            while state.kept.count > entries || state.bytes > bytes,
                let oldest = state.kept.min(by: { $0.value.used < $1.value.used })
            {
                state.bytes -= oldest.value.picture.bytes.count
                state.kept[oldest.key] = nil
            }
        }
    }
}
