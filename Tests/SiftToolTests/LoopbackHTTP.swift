#if SIFT_POSTGRES
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP/1.1 GETs over a plain socket to a server on loopback, for the
/// serve tests. Not URLSession: on Linux it wraps libcurl's sockets in
/// dispatch sources, and its teardown races them, a known crash family of
/// swift-corelibs-foundation (`_dispatch_event_loop_drain`, issue #4791)
/// that test runs met even with one session shared by every test. A
/// request here is a socket, a write and reads to the end
/// (`Connection: close`), on a thread of its own, so that no task of the
/// concurrency pool waits on the network.
enum LoopbackHTTP {
    struct Response: Sendable {
        var status: Int
        /// The header fields, names lowercased.
        var headers: [String: String]
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// GETs `resource` (a path and query, already percent-encoded) from
    /// `host:port`; the whole exchange must be done within `timeout`
    /// seconds of silence.
    /// With `pause`, the client stops reading for that many seconds after
    /// its first read, as a slow client does.
    static func get(
        host: String, port: Int, _ resource: String, headers: [String: String] = [:], timeout: Int = 120,
        pause: Double = 0
    ) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try exchange(host: host, port: port, resource: resource, headers: headers, timeout: timeout, pause: pause)
                })
            }
        }
    }

    private static func exchange(
        host: String, port: Int, resource: String, headers: [String: String], timeout: Int, pause: Double
    ) throws -> Response {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let noSignal = Int32(MSG_NOSIGNAL)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        let noSignal: Int32 = 0
        if socket >= 0 {
            var on: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        }
        #endif
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw Failure(description: "not a loopback IPv4 address: \(host)")
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        var request = "GET \(resource) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, noSignal) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            if received.isEmpty, pause > 0 { Thread.sleep(forTimeInterval: pause) }
            received += buffer[..<n]
        }
        return try parse(received)
    }

    /// The status, header fields and body of a whole response.
    static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "no end of the header in \(bytes.count) bytes")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = head[0].split(separator: " ")
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw Failure(description: "not a status line: \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "not a header field: \(line)") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + separator.count)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = try dechunk(body)
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            guard body.count == length else { throw Failure(description: "\(body.count) bytes for Content-Length \(length)") }
        }
        return Response(status: status, headers: headers, body: Data(body))
    }

    /// The data of a chunked body, which must end with its last chunk.
    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var data: [UInt8] = []
        var at = 0
        while true {
            guard let lineEnd = bytes[at...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }) else {
                throw Failure(description: "a chunk without its size line")
            }
            let sizeText = String(decoding: bytes[at..<lineEnd], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            guard !sizeText.isEmpty, sizeText.count <= 8, sizeText.allSatisfy(\.isHexDigit), let size = Int(sizeText, radix: 16)
            else { throw Failure(description: "not a chunk size: \(sizeText)") }
            at = lineEnd + 2
            if size == 0 { return data }
            guard size <= bytes.count - at - 2 else { throw Failure(description: "the body ends inside a chunk") }
            data += bytes[at..<(at + size)]
            guard bytes[(at + size)...].starts(with: [13, 10]) else { throw Failure(description: "a chunk not ended by CRLF") }
            at += size + 2
        }
    }
}
#endif
