#if SIFT_POSTGRES
import Foundation
import Sift
import Testing

/// A `sift serve` process on a free port (`--port 0`), as a user starts it,
/// and requests to it over real HTTP on loopback. Stopped (SIGTERM) by
/// ``stop()`` or when released.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    /// The server's URL, as it printed it.
    let url: String
    /// The sample's file, when started with `--sample`.
    let samplePath: String?

    init(_ arguments: [String]) throws {
        let binary = try #require(CommandLineTests.binary, "build the sift product first (swift build)")
        process.executableURL = binary
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        var text = ""
        var sample: String?
        while true {
            let data = stdout.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw ServeError(description: "sift serve ended before it printed its URL: \(text)")
            }
            text += String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("sample data: ") {
                sample = String(line.dropFirst("sample data: ".count))
            }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("serving ") && $0.contains(" at http") }),
                let at = line.range(of: " at ")
            {
                url = String(line[at.upperBound...])
                break
            }
        }
        samplePath = sample
    }

    struct ServeError: Error, CustomStringConvertible {
        var description: String
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Stops the server and removes the sample's folder, if it made one.
    deinit {
        stop()
        if let samplePath { try? FileManager.default.removeItem(at: URL(fileURLWithPath: samplePath).deletingLastPathComponent()) }
    }

    struct Reply: Sendable {
        var status: Int
        var contentType: String
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> JSONValue { try JSONValue(parsingUTF8: body) }
        /// A member of the JSON object the body is.
        func member(_ name: String) throws -> JSONValue? {
            guard case .object(let o) = try json() else { return nil }
            return o[name]
        }
    }

    /// GETs `path` (with its query, already encoded) from the server, with
    /// ``LoopbackHTTP`` on a thread of its own (reading nothing for `pause`
    /// seconds after the first bytes).
    func get(_ path: String, accept: String? = nil, pause: Double = 0) async throws -> Reply {
        let target = path.hasPrefix("http") ? path : url + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
        let parts = try #require(URLComponents(string: target), "\(target)")
        let host = try #require(parts.host, "\(target)")
        let port = try #require(parts.port, "\(target)")
        let resource = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath)
            + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
        let response = try await LoopbackHTTP.get(
            host: host, port: port, resource, headers: accept.map { ["Accept": $0] } ?? [:], pause: pause)
        return Reply(status: response.status, contentType: response.headers["content-type"] ?? "", body: response.body)
    }

    /// A query string of `items`, each value percent-encoded but for
    /// RFC 3986's unreserved characters.
    static func query(_ items: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return items.map { name, value in
            name.addingPercentEncoding(withAllowedCharacters: allowed)! + "="
                + value.addingPercentEncoding(withAllowedCharacters: allowed)!
        }.joined(separator: "&")
    }

    /// Every file's name and bytes under `folder`, in order: equal before
    /// and after means the folder is byte-identical.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        for name in names.sorted() {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }
}
#endif
