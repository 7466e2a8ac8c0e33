// swift-tools-version: 6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

// `make tsan` builds the tests instrumented by ThreadSanitizer to run
// ConcurrencyTests, which need neither PostgreSQL nor NIO. With
// SIFT_WITHOUT_POSTGRES=1 the SiftPostgres product and the suites that reach
// PostgreSQL through it are left out, so that NIO (most of a clean build's
// time) is not built a second time, instrumented; the `sift` tool is then
// built without its PostgreSQL commands (no SIFT_POSTGRES define).
let withPostgres = ProcessInfo.processInfo.environment["SIFT_WITHOUT_POSTGRES"] != "1"

/// For the tool and its tests: SiftPostgres and the define that turns on the
/// code using it, or nothing without PostgreSQL.
let toolPostgres: (dependencies: [Target.Dependency], settings: [SwiftSetting]) =
    withPostgres
    ? (["SiftPostgres", .product(name: "PostgresNIO", package: "postgres-nio")], [.define("SIFT_POSTGRES")])
    : ([], [])

/// For the tool: SiftServer (`sift serve`) and its define, left out with
/// PostgreSQL (SIFT_WITHOUT_POSTGRES=1), so that `make tsan` builds no NIO.
let toolServer: (dependencies: [Target.Dependency], settings: [SwiftSetting]) =
    withPostgres ? (["SiftServer"], [.define("SIFT_SERVE")]) : ([], [])

let package = Package(
    name: "Sift",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Sift", targets: ["Sift"]),
        .library(name: "SiftSQL", targets: ["SiftSQL"]),
        .library(name: "SiftSQLite", targets: ["SiftSQLite"]),
        // Runs lowered fetches on PostgreSQL through PostgresNIO. A product
        // of its own, so that only the packages that use it build NIO.
        .library(name: "SiftPostgres", targets: ["SiftPostgres"]),
        // Runs fetches on any SQLKit database (SQLite and PostgreSQL, as
        // Fluent's drivers hand them out) and filters Fluent queries.
        .library(name: "SiftSQLKit", targets: ["SiftSQLKit"]),
        .executable(name: "sift", targets: ["sift"]),
        // `sift serve`: a read-only JSON API and web page over one database,
        // on Hummingbird. A product of its own, so that only its users build
        // Hummingbird.
        .library(name: "SiftServer", targets: ["SiftServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // TLS for SiftPostgres's connections to a coordinator's foreign
        // servers, as their `sslmode` asks (PostgresNIO takes an
        // NIOSSLContext); PostgresNIO builds it already, at this version.
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // SiftSQLKit: SQLKit, sqlite-nio and sqlite-kit (the sift_*
        // functions on a SQLite connection) and FluentKit (the QueryBuilder
        // filter); postgres-kit and the Fluent SQLite driver only for its
        // tests.
        .package(url: "https://github.com/vapor/sql-kit", exact: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
        .package(url: "https://github.com/vapor/sqlite-kit", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", exact: "2.17.0"),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
        // `swift package generate-documentation` (make docs). A command
        // plugin that no target uses: a package that depends on Sift does not
        // even fetch it (SwiftPM resolves only what the products it uses
        // need). Here it adds two small clones to `swift package resolve`,
        // and a build of the whole package compiles its two plugin scripts
        // once (a few seconds), as it does argument-parser's; its tools are
        // built only when the plugin runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
        // `sift serve` (SiftServer): an HTTP server on NIO, which PostgresNIO
        // has the package build already.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .target(
            name: "Sift",
            dependencies: ["CPCRE2"]
        ),
        .target(
            name: "SiftSQL",
            dependencies: ["Sift"]
        ),
        // zlib, for the raw DEFLATE stream of a Core Data store's model cache.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "SiftSQLite",
            dependencies: ["SiftSQL", "SiftCatalog", "CZlib", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Reading a schema from a database's catalog: the rules that turn
        // tables, keys and foreign keys into entities and relationships, and
        // PostgreSQL's catalog query. Driver-free, so that SQLite's reader,
        // SiftPostgres and any other PostgreSQL client share them.
        .target(
            name: "SiftCatalog",
            dependencies: ["SiftSQL"]
        ),
        .target(
            name: "SiftPostgres",
            dependencies: [
                "Sift", "SiftSQL", "SiftCatalog",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // SQLKit's databases: the dialect from the database, values bound by
        // SQLKit, rows decoded by SiftPostgres's and SiftSQLite's rules.
        .target(
            name: "SiftSQLKit",
            dependencies: [
                "Sift", "SiftSQL", "SiftCatalog", "SiftPostgres",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
            ]
        ),
        // libpq, for running lowered statements on a real PostgreSQL server
        // in the tests; the library itself stays driver-free.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // Line editing for the REPL: libedit (BSD licence) behind a small C shim.
        .target(
            name: "CSiftEdit",
            linkerSettings: [.linkedLibrary("edit")]
        ),
        // The conformance cases' runner and their JSON conventions for
        // values: shared by `sift check` and the conformance tests.
        .target(
            name: "SiftCases",
            dependencies: ["Sift"]
        ),
        .target(
            name: "SiftTool",
            dependencies: [
                "Sift", "SiftSQL", "SiftSQLite", "SiftCatalog", "SiftCases", "CSiftEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ] + toolPostgres.dependencies + toolServer.dependencies,
            swiftSettings: toolPostgres.settings + toolServer.settings
        ),
        // The JSON API and web page of `sift serve`, over any store that
        // answers lowered fetches (the tool hands it SQLite or PostgreSQL).
        .target(
            name: "SiftServer",
            dependencies: ["Sift", "SiftSQL", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        .executableTarget(
            name: "sift",
            dependencies: ["SiftTool"]
        ),
        .testTarget(
            name: "SiftTests",
            dependencies: ["Sift", "SiftCases", "SiftTestSupport"]
        ),
        // What the test targets share: the throwaway PostgreSQL server
        // (through SiftPostgres, only when it is built, as for the tool), the
        // test-only libpq client, the real Core Data stores, the Library
        // fixture with its predicate generator, and the seeded random
        // generator of every generated test. A regular target, so that it
        // is compiled once and imported, rather than linked into each test
        // target; without PostgreSQL (make tsan) it builds no NIO: libpq is
        // a system library.
        .target(
            name: "SiftTestSupport",
            dependencies: [
                "Sift", "SiftSQL", "SiftSQLite", "CLibPQ", .product(name: "GRDB", package: "GRDB.swift"),
            ] + toolPostgres.dependencies,
            path: "Tests/SiftTestSupport",
            swiftSettings: toolPostgres.settings
        ),
        // Lowering, dialects and the schema model; the differential suite
        // (memory = SQLite = PostgreSQL), which runs on both engines.
        .testTarget(
            name: "SiftSQLTests",
            dependencies: [
                "SiftSQL", "SiftSQLite", "Sift", "SiftPostgres", "SiftTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.define("SIFT_POSTGRES")]
        ),
        // Reading SQLite files, Core Data models and stores, GRDB fetching
        // and the SQLite functions.
        .testTarget(
            name: "SiftSQLiteTests",
            dependencies: [
                "SiftSQLite", "SiftSQL", "Sift", "CZlib", "SiftTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // SiftCatalog's rules: tables to entities and relationships (through
        // SQLite's reader, and from rows of PostgreSQL's catalog queries,
        // without a server), stored values read back by type.
        .testTarget(
            name: "SiftCatalogTests",
            dependencies: [
                "SiftCatalog", "SiftSQLite", "SiftSQL", "Sift", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SiftPostgresTests",
            dependencies: [
                "SiftPostgres", "SiftSQL", "Sift", "SiftTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [.define("SIFT_POSTGRES")]
        ),
        // SiftSQLKit through real drivers: the differential suite's fetches
        // on SQLite (sqlite-kit) and PostgreSQL (postgres-kit), and the
        // Fluent filter on the Fluent SQLite driver.
        .testTarget(
            name: "SiftSQLKitTests",
            dependencies: [
                "SiftSQLKit", "SiftSQL", "Sift", "SiftSQLite", "SiftPostgres", "SiftTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
            ],
            swiftSettings: [.define("SIFT_POSTGRES")]
        ),
        .testTarget(
            name: "SiftToolTests",
            dependencies: [
                "SiftTool", "Sift", "SiftSQL", "SiftSQLite", "SiftTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ] + toolPostgres.dependencies,
            swiftSettings: toolPostgres.settings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The @KeyValueReadable macro, which writes a type's key table. A product of
// its own: only packages that use it build swift-syntax (about two minutes
// on a clean debug build); `Sift` alone never does. SIFT_WITHOUT_MACROS=1
// leaves it out, as `make tsan` does (ConcurrencyTests need no macro, and
// swift-syntax would be built a second time, instrumented).
if ProcessInfo.processInfo.environment["SIFT_WITHOUT_MACROS"] != "1" {
    package.products.append(.library(name: "SiftMacros", targets: ["SiftMacros"]))
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"))
    package.targets += [
        .macro(
            name: "SiftMacroPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "SiftMacros",
            dependencies: ["Sift", "SiftMacroPlugin"]
        ),
        .testTarget(
            name: "SiftMacrosTests",
            dependencies: [
                "SiftMacros", "SiftMacroPlugin", "Sift",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
    ]
}

// Without PostgreSQL (see `withPostgres` above): the targets that build NIO
// are left out, SiftServer (`sift serve`, on Hummingbird) among them.
if !withPostgres {
    let nio: Set<String> = [
        "SiftPostgres", "SiftPostgresTests", "SiftSQLTests", "SiftSQLKit", "SiftSQLKitTests", "SiftServer", "SiftServerTests",
    ]
    package.targets.removeAll { nio.contains($0.name) }
    package.products.removeAll { nio.contains($0.name) }
}
