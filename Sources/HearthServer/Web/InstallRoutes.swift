import Foundation
import HearthMedia
import Hummingbird
import NIOCore

/// What makes the site installable as an app ("Add to home screen"): the web app manifest, the
/// service worker at the root (so its scope is the whole site; its file is `Resources/sw.js`) and
/// Hearth's icon (`AppIcon`) wherever browsers and home screens look for one. Served as the
/// site's other files are (`AssetRoutes`: ETag, revalidated on use).
struct InstallRoutes {
    let assets: WebAssets
    let networkName: String

    /// Each icon's path: an SVG, or a PNG of that many pixels a side.
    static let icons: [(path: String, side: Int?)] = [
        ("/static/icon.svg", nil), ("/static/icon-192.png", 192), ("/static/icon-512.png", 512),
        ("/static/icon-180.png", 180), ("/favicon.ico", 32),
    ]

    /// Drawn once per process.
    static let iconAssets: [String: WebAssets.Asset] = {
        var assets: [String: WebAssets.Asset] = [:]
        for (path, side) in icons {
            let (bytes, type) =
                side.map { (AppIcon.png(side: $0), "image/png") } ?? (Array(AppIcon.svg.utf8), "image/svg+xml")
            assets[path] = asset(bytes, type)
        }
        return assets
    }()

    static func asset(_ bytes: [UInt8], _ type: String) -> WebAssets.Asset {
        WebAssets.Asset(
            body: ByteBuffer(bytes: bytes), contentType: type, version: WebAssets.version(bytes), versioned: false)
    }

    /// The manifest: the network's name, the site as its scope, the icons.
    static func manifest(name: String) -> [UInt8] {
        let icon: (String, String, String) -> [String: String] = { src, sizes, purpose in
            ["src": src, "sizes": sizes, "type": "image/png", "purpose": purpose]
        }
        let manifest: [String: Any] = [
            "name": name, "short_name": String(name.prefix(12)),
            "description": "Chat, memes, a daily fortune cookie, recipes and your family.",
            "start_url": "/", "scope": "/", "display": "standalone",
            "background_color": "#1c1917", "theme_color": "#1c1917",
            "icons": [
                icon("/static/icon-192.png", "192x192", "any"), icon("/static/icon-512.png", "512x512", "any"),
                icon("/static/icon-512.png", "512x512", "maskable"),
                ["src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"],
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])) ?? Data()
        return [UInt8](data)
    }

    func add(to router: Router<HearthRequestContext>) {
        var served = Self.iconAssets
        served["/manifest.webmanifest"] = Self.asset(Self.manifest(name: networkName), "application/manifest+json")
        if let worker = assets.byPath["/static/sw.js"] { served["/sw.js"] = worker }
        for (path, asset) in served {
            router.get(RouterPath(path)) { request, _ in AssetRoutes.response(asset, request) }
        }
    }
}
