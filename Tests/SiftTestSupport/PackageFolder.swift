import Foundation

/// The package's folder: the first above this file holding Package.swift,
/// for the tests' files (the real stores beside it, the golden SQL files).
package enum PackageFolder {
    package static let url: URL = {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return root
    }()
}
