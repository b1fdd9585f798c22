// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "FedNode",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fednode", targets: ["FedNodeCLI"]),
        .library(name: "FedNode", targets: ["FedNode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // System libraries (C code stays in its own C* targets).
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]),
        // libvips is opened at run time by the first upload (Sources/CVips/shim.h), not linked:
        // pkg-config is asked for GLib, whose include paths its headers need (libglib stays
        // linked); libvips' own headers are where libvips-dev puts them, /usr/include/vips.
        .systemLibrary(
            name: "CVips", path: "Sources/CVips", pkgConfig: "glib-2.0",
            providers: [.apt(["libvips-dev"])]),
        // Linux interfaces Swift's Glibc module leaves out (epoll, accept4); libc itself, nothing to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // Pure values: ActivityStreams vocabulary, WebFinger, NodeInfo, text parsing.
        .target(name: "Activity"),
        // Keys, digests, HTTP Signatures, password hashing.
        .target(name: "Signatures", dependencies: ["COpenSSL"]),
        // The schema, records, and every query, grouped by aggregate, on SQLite (GRDB) or
        // PostgreSQL (postgres-nio): the only target that imports either
        // (scripts/check-storage-boundary keeps it so).
        .target(
            name: "Storage",
            dependencies: [
                "Activity",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The node below its HTTP server: use cases, federation (inbox and delivery workers,
        // resolution, the libcurl client), media, mail, metrics. No Hummingbird here: the
        // entry points in `FedNode` parse a request, call into Core and render the answer.
        .target(
            name: "Core",
            dependencies: [
                "Activity", "Signatures", "Storage", "CCurl", "CVips",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // The assembled node: the HTTP server, the client API, the web app, the ActivityPub
        // routes, streaming, and the error mapping and middleware.
        .target(
            name: "FedNode",
            dependencies: [
                "Core", "Activity", "Signatures", "Storage", "CCurl", "CVips",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Web/Templates"), .copy("Web/Assets")]),
        // `fednode bench`: the load generator, loopback sinks, database generator and report.
        .target(
            name: "Benchmarks",
            dependencies: [
                "FedNode", "Core", "Storage", "Signatures", "Activity", "CVips", "CLinux",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "FedNodeCLI",
            dependencies: [
                "FedNode", "Core", "Storage", "Signatures", "Benchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),

        // Helpers the test targets share (child processes started with posix_spawn).
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "ActivityTests", dependencies: ["Activity"], exclude: ["Fixtures"]),
        .testTarget(name: "SignaturesTests", dependencies: ["Signatures"]),
        .testTarget(
            name: "StorageTests",
            dependencies: ["Storage", "Signatures", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "FedNodeTests",
            dependencies: [
                "FedNode", "Core", "Storage", "Signatures", "Activity", "CVips", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]),
        .testTarget(name: "MediaTests", dependencies: ["FedNode", "Core", "CVips"]),
        .testTarget(
            name: "BenchmarksTests",
            dependencies: ["Benchmarks", "Signatures", "Activity", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "FederationTests",
            dependencies: ["FedNode", "Core", "Storage", "Signatures", "Activity", "TestSupport", "Benchmarks"]),
    ],
    swiftLanguageModes: [.v6]
)
