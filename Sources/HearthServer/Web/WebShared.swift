import Foundation
import HearthAccounts
import NIOCore
import Synchronization

extension WebLimits {
    /// Forms (each a bot command) one account may post at once, and per second after that: the
    /// chat's commands are held to `FloodControl`, the same commands from the web to this.
    static let formBurst = 16.0
    static let formsPerSecond = 1.0
}

/// What every web port shares (HTTP and HTTPS alike): the limits per account and the caches,
/// made once by the server so a second listener does not double an allowance.
final class WebShared: Sendable {
    let forms: FormLimit
    let uploads: WindowLimit
    let previews: WindowLimit
    let pictures = PictureCache(entries: WebLimits.previewCacheEntries, bytes: WebLimits.previewCacheBytes)
    let pages: WebPageCache
    /// memegen-style URLs (`MemeURLRoutes`): new drawings per address, and the last pictures drawn.
    let memeURLRenders: AddressQuota
    let memeURLPictures = PictureCache(entries: MemeURLRoutes.cacheEntries, bytes: MemeURLRoutes.cacheBytes)

    init(
        pageCacheSeconds: Double, clock: HearthClock = .system,
        exempt: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        forms = FormLimit(burst: WebLimits.formBurst, rate: WebLimits.formsPerSecond, clock: clock)
        uploads = WindowLimit(count: WebLimits.uploadsPerHour, window: .seconds(3600), clock: clock)
        previews = WindowLimit(count: WebLimits.previewsPerMinute, window: .seconds(60), clock: clock)
        pages = WebPageCache(seconds: pageCacheSeconds)
        memeURLRenders = AddressQuota(limit: MemeURLRoutes.rendersPerMinute, window: 60, clock: clock, exempt: exempt)
    }
}

/// A token bucket per account (the chat's `FloodControl`, keyed by account): a burst at once,
/// then `rate` a second.
final class FormLimit: Sendable {
    let burst: Double
    let rate: Double
    private let buckets = Mutex<[Int64: FloodControl]>([:])
    /// The server clock's ticks, as the chat's flood control: a test's stands still, so no bucket
    /// refills while a loaded machine posts a burst.
    private let ticks: @Sendable () -> UInt64

    init(burst: Double, rate: Double, clock: HearthClock = .system) {
        (self.burst, self.rate, ticks) = (burst, rate, clock.ticks)
    }

    /// Takes one for `key`: nil when allowed, else the whole seconds to wait (for Retry-After).
    func wait(_ key: Int64, now: NIODeadline? = nil) -> Int? {
        let now = now ?? .uptimeNanoseconds(ticks())
        return buckets.withLock { buckets in
            // Buckets full again are the same as new ones: swept out when there are many.
            if buckets.count >= WindowLimit.sweepAt {
                let refill = TimeAmount.nanoseconds(Int64(burst / rate * 1e9))
                buckets = buckets.filter { now - $0.value.last < refill }
            }
            var bucket = buckets[key] ?? FloodControl()
            if buckets[key] == nil {
                (bucket.tiers.burst, bucket.tiers.rate, bucket.tokens, bucket.last) = (burst, rate, burst, now)
            }
            let wait = bucket.take(.registered, now: now)
            buckets[key] = bucket
            return wait.map { max(1, Int(($0.nanoseconds + 999_999_999) / 1_000_000_000)) }
        }
    }
}
