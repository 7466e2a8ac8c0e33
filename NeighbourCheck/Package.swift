// swift-tools-version: 6.0
// Compiles a file that imports SQLKit and FluentKit with Sift and uses the
// names of each unqualified: it builds only while none of Sift's public
// names is one of theirs. `make neighbours` builds it (a package of its
// own, so that the library's build never resolves SQLKit or FluentKit).
import PackageDescription

let package = Package(
    name: "NeighbourCheck",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sift", path: ".."),
        .package(url: "https://github.com/vapor/sql-kit", exact: "3.36.0"),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
    ],
    targets: [
        .executableTarget(
            name: "NeighbourCheck",
            dependencies: [
                .product(name: "Sift", package: "Sift"),
                .product(name: "SiftSQL", package: "Sift"),
                .product(name: "SiftSQLKit", package: "Sift"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "FluentKit", package: "fluent-kit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
