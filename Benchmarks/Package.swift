// swift-tools-version: 6.1
// Benchmarks for Sift, kept in their own package so that the main package's
// `swift build` and `swift test` never build the benchmark dependencies.
//
//   cd Benchmarks && swift package --disable-sandbox benchmark
import PackageDescription

let package = Package(
    name: "SiftBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sift", path: ".."),
        // The MallocInterposer trait gives malloc counts without jemalloc.
        // Naming the trait also turns off the default RuntimeInterposer trait,
        // whose package is not needed here.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // For SQLBenchmarks: the same GRDB as the root package's SiftSQLite.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "ParseBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sift", package: "Sift"),
            ],
            path: "Benchmarks/ParseBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "EvalBenchmarks",
            dependencies: [
                "EvalSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sift", package: "Sift"),
            ],
            path: "Benchmarks/EvalBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // The data set and the five predicates, shared by EvalBenchmarks and EvalProfile.
        .target(
            name: "EvalSupport",
            dependencies: [
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftMacros", package: "Sift"),
            ],
            path: "Support/EvalSupport"
        ),
        // Not a benchmark (the plugin runs only executables under Benchmarks/):
        // one predicate in a loop, for callgrind; match counts; the data as JSON.
        // Also the runner of Sift's side in peers/compare.py.
        .executableTarget(
            name: "EvalProfile",
            dependencies: [
                "EvalSupport",
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "SiftSQLite", package: "Sift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tools/EvalProfile"
        ),
        // Lowered fetch requests against hand-written SQL on a 1,000,000-row SQLite database.
        .executableTarget(
            name: "SQLBenchmarks",
            dependencies: [
                "SQLSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "SiftSQLite", package: "Sift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/SQLBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // The schema, the data, the database and the four cases, shared by
        // SQLBenchmarks and SQLPlans.
        .target(
            name: "SQLSupport",
            dependencies: [
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "SiftSQLite", package: "Sift"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Support/SQLSupport"
        ),
        // Not a benchmark: the SQL of each case, its row count, and
        // EXPLAIN QUERY PLAN of every lowered and hand-written query.
        .executableTarget(
            name: "SQLPlans",
            dependencies: [
                "SQLSupport",
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tools/SQLPlans"
        ),
    ],
    swiftLanguageModes: [.v6]
)
