// swift-tools-version: 6.0
// libFuzzer targets for Sift, kept in their own package so that the main
// package's `swift build` and `swift test` never build them. `make fuzz` and
// `make fuzz-smoke` build them with the fuzzer and address sanitizers, write
// the seed corpus and run them (Fuzz/scripts/run.sh); by hand:
//
//   swift build --package-path Fuzz --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer
//   Fuzz/.build/debug/FuzzParse -help=1
//
// (`--sanitize fuzzer` links libFuzzer, whose `main` runs the target;
// `-Xswiftc -sanitize=fuzzer` instruments every module for coverage.)
import PackageDescription

let package = Package(
    name: "SiftFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sift", path: ".."),
        // The same GRDB as the root package's SiftSQLite, to run lowered SQL.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The fixed inputs (format arguments, the object evaluated, the
        // variables, a typed record) and the checks shared by the targets.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "Sift", package: "Sift")]
        ),
        // Parse and print: the printed form parses back to the same tree.
        .executableTarget(
            name: "FuzzParse",
            dependencies: ["FuzzSupport", .product(name: "Sift", package: "Sift")]
        ),
        // Parse, substitute variables and evaluate against a fixed object.
        .executableTarget(
            name: "FuzzEvaluate",
            dependencies: ["FuzzSupport", .product(name: "Sift", package: "Sift")]
        ),
        // Parse and lower to SQL; SQLite must accept what is produced.
        .executableTarget(
            name: "FuzzSQL",
            dependencies: [
                "FuzzSupport",
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "SiftSQLite", package: "Sift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
