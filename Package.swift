// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Sift",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Sift", targets: ["Sift"]),
        .executable(name: "sift", targets: ["sift"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
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
            name: "SiftTool",
            dependencies: [
                "Sift",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "sift",
            dependencies: ["SiftTool"]
        ),
        .testTarget(
            name: "SiftTests",
            dependencies: ["Sift"]
        ),
        .testTarget(
            name: "SiftToolTests",
            dependencies: ["SiftTool", "Sift"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
