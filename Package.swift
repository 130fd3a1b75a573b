// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .executable(name: "hearth-bench", targets: ["hearth-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Tests start programs with it: Foundation's Process.run can crash while many sockets are
        // open (swift-corelibs-foundation#5472, reading /proc/self/fd).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // HMAC, SHA-256 and PBKDF2 for SCRAM-SHA-256 (postgres-nio already depends on it).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // The web pages' templates (escaped by default).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The configuration file (YAML), environment and flags, in that order of weight.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: [.defaults, "YAML"]),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // /metrics: counters and histograms in Prometheus's text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // HTTP field names and statuses for the web routes (Hummingbird's request and response types).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        // Linux's epoll for the plain-TCP IRC listener's own I/O (`--io epoll`).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(name: "CGD", path: "Sources/CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        // FreeType itself, for colour emoji in captions (libgd's text drawing keeps only coverage).
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .target(name: "HearthProtocol"),
        .target(name: "HearthMedia", dependencies: ["CGD", "CFreeType"], resources: [.copy("MapData")]),
        .target(
            name: "HearthCrypto",
            dependencies: [
                "CSodium", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .target(
            name: "HearthStore",
            dependencies: [
                "HearthCrypto",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // Pictures on disk and the libgd work on them, off the event loops.
        .target(
            name: "HearthMediaLibrary",
            dependencies: [
                "HearthMedia", "HearthStore", "HearthCrypto",
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // Account rules: names, passwords (Argon2id off the event loops), throttles, tokens.
        .target(
            name: "HearthAccounts",
            dependencies: [
                "HearthProtocol", "HearthStore", "HearthCrypto",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // What the chat server and the apps share: the command table, requests and responses,
        // session effects, presence, paging, suggestions.
        .target(
            name: "HearthKit",
            dependencies: [
                "HearthProtocol", "HearthStore", "HearthCrypto", "HearthAccounts", "HearthMediaLibrary", "HearthMedia",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The apps, one folder each.
        .target(
            name: "HearthApps",
            dependencies: [
                "HearthKit", "HearthAccounts", "HearthMediaLibrary",
                "HearthProtocol", "HearthStore", "HearthCrypto", "HearthMedia",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // memegen's template packs (config.yml) for `hearth templates import`.
                .product(name: "Yams", package: "Yams"),
            ], resources: [.copy("Fortunes")]),
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthProtocol", "HearthKit", "HearthAccounts", "HearthMediaLibrary", "HearthMedia", "HearthStore",
                "HearthCrypto",
                .target(name: "CEpoll", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // Web Push deliveries to browsers' push services.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The web pages' stylesheets and scripts and the chat page (WebAssets), beside the program.
            resources: [.process("Resources")]),
        // `hearth serve`'s settings: one table of keys read from flags, HEARTH_… variables and a
        // YAML file, checked (unknown keys, types, ranges) and turned into the server's config.
        .target(
            name: "HearthConfig",
            dependencies: [
                "HearthServer", "HearthApps", "HearthStore", "HearthCrypto", "HearthProtocol", "HearthAccounts",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthServer", "HearthStore", "HearthCrypto", "HearthApps", "HearthKit", "HearthAccounts",
                "HearthMediaLibrary", "HearthMedia", "HearthConfig", "HearthProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // What the fuzzers check (scripts/fuzz), one module per target so each fuzzer builds only
        // what it tests; the unit tests replay the saved corpus through the same checks.
        .target(name: "IRCLineChecks", dependencies: ["HearthProtocol"], path: "Fuzz/checks/irc-line"),
        .target(
            name: "CommandGrammarChecks", dependencies: ["HearthKit", "HearthApps", "HearthStore"],
            path: "Fuzz/checks/command-grammar"),
        .target(name: "ImageUploadChecks", dependencies: ["HearthMedia"], path: "Fuzz/checks/image-upload"),
        .target(name: "FuzzDriver", path: "Fuzz/driver"),
        .executableTarget(
            name: "fuzz-irc-line", dependencies: ["FuzzDriver", "IRCLineChecks"], path: "Fuzz/targets/irc-line"),
        .executableTarget(
            name: "fuzz-command-grammar", dependencies: ["FuzzDriver", "CommandGrammarChecks"],
            path: "Fuzz/targets/command-grammar"),
        .executableTarget(
            name: "fuzz-image-upload", dependencies: ["FuzzDriver", "ImageUploadChecks"],
            path: "Fuzz/targets/image-upload"),
        .executableTarget(
            name: "hearth-bench",
            dependencies: [
                "HearthMedia", "HearthStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // What the server tests share: a real server per test, clients, programs.
        .target(
            name: "HearthTesting",
            dependencies: [
                "HearthServer", "HearthApps", "HearthKit", "HearthAccounts", "HearthMediaLibrary", "HearthMedia",
                "HearthStore", "HearthCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/HearthTesting"),
        .testTarget(name: "HearthProtocolTests", dependencies: ["HearthProtocol", "IRCLineChecks"]),
        .testTarget(name: "HearthMediaTests", dependencies: ["HearthMedia", "ImageUploadChecks"]),
        .testTarget(
            name: "HearthAppsTests",
            dependencies: [
                "HearthTesting", "HearthApps", "HearthKit", "HearthAccounts", "HearthStore", "HearthCrypto",
                "CommandGrammarChecks",
            ]),
        .testTarget(
            name: "HearthStoreTests",
            dependencies: [
                "HearthStore", "HearthTesting", "HearthCrypto", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "HearthAccountsTests", dependencies: ["HearthAccounts", "HearthCrypto", "HearthProtocol"]),
        .testTarget(name: "HearthKitTests", dependencies: ["HearthKit", "HearthCrypto"]),
        .testTarget(name: "HearthCryptoTests", dependencies: ["HearthCrypto"]),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthTesting", "HearthServer", "HearthApps", "HearthKit", "HearthAccounts", "HearthMediaLibrary",
                "HearthStore", "HearthCrypto", "HearthMedia", "HearthConfig", "HearthProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
    ]
)
