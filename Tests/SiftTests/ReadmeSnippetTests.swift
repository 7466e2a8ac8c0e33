import Foundation
import Testing

/// Every Swift example of the documentation is a test: each line of code of
/// each ```swift block of README.md, of the DocC articles
/// (`Sources/*/*.docc/*.md`) and of `Documentation/*.md` must be found in a
/// test (Tests/**/*.swift), where it is compiled and run, with the test's
/// checks of what the document's comments say it gives. Comments and blanks
/// do not count. A file name (a string ending in `.sqlite`) or a connection
/// string (one with `://`) stands for the reader's own, so the test may give
/// a string or a variable there (a temporary file's path, the test server's
/// address).
///
/// A block of `Package.swift` lines is checked against `Package.swift`:
/// each product it names is one of the package's library products.
struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func everySwiftExampleIsInATest() throws {
        let tests = try Self.testSources().map(Self.normalized).joined()
        var guideBlocks = 0
        for path in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let blocks = Self.swiftBlocks(text)
            if path == "README.md" {
                #expect(blocks.count >= 5, "the README's Swift examples were not found")
            } else {
                guideBlocks += blocks.count
            }
            for block in blocks where !block.code.contains(".package(") {
                for (offset, line) in block.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = Self.normalized(String(line))
                    if code.allSatisfy({ "[](){},".contains($0) }) { continue }
                    let found = code.contains("\"…\"")
                        ? tests.range(of: Self.pattern(code), options: .regularExpression) != nil
                        : tests.contains(code)
                    #expect(
                        found,
                        "\(path) line \(block.line + 1 + offset) is in no test: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(guideBlocks >= 15, "the Swift examples of the DocC articles and Documentation/ were not found")
    }

    @Test func packageLinesNameTheProducts() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        _ = try #require(Self.swiftBlocks(readme).first { $0.code.contains(".package(") })
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(Self.captures(#"\.library\(name: "([A-Za-z]+)""#, in: manifest))
        for path in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            for block in Self.swiftBlocks(text) where block.code.contains(".package(") {
                let named = Self.captures(#"\.product\(name: "([A-Za-z]+)", package: "Sift"\)"#, in: block.code)
                #expect(!named.isEmpty, "\(path) line \(block.line) names no product")
                for product in named {
                    #expect(libraries.contains(product), "\(path) names a product Package.swift lacks: \(product)")
                }
                #expect(Set(named) == libraries, "\(path)'s Package.swift lines should name every library product")
            }
        }
    }

    /// The documents whose Swift examples must run, as paths from the
    /// package's root: README.md, the DocC articles and Documentation/*.md.
    static func documents() throws -> [String] {
        let files = FileManager.default
        var paths = ["README.md"]
        let sources = root.appendingPathComponent("Sources")
        for target in try files.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(target)
            guard let entries = try? files.contentsOfDirectory(atPath: folder.path) else { continue }
            for catalog in entries.sorted() where catalog.hasSuffix(".docc") {
                let articles = try files.contentsOfDirectory(atPath: folder.appendingPathComponent(catalog).path)
                paths += articles.sorted().filter { $0.hasSuffix(".md") }.map { "Sources/\(target)/\(catalog)/\($0)" }
            }
        }
        let documentation = root.appendingPathComponent("Documentation")
        if let guides = try? files.contentsOfDirectory(atPath: documentation.path) {
            paths += guides.sorted().filter { $0.hasSuffix(".md") }.map { "Documentation/\($0)" }
        }
        return paths
    }

    /// The ```swift blocks, with the line of their opening fence.
    static func swiftBlocks(_ text: String) -> [(line: Int, code: String)] {
        var blocks: [(Int, String)] = []
        var current: [Substring]?
        var start = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line == "```swift" {
                current = []
                start = number + 1
            } else if current != nil, line == "```" {
                blocks.append((start, current!.joined(separator: "\n")))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func testSources() throws -> [String] {
        let tests = root.appendingPathComponent("Tests")
        guard let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else { return [] }
        return try files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
    }

    /// The code of `text` without `//` comments (outside string literals)
    /// and without blanks, with file names and connection strings made `"…"`.
    static func normalized(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false
            var escaped = false
            var previous: Character = " "
            for c in line {
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                } else if c == "/" && previous == "/" {
                    out.removeLast()
                    break
                } else if c == "\"" {
                    inString = true
                }
                out.append(c)
                previous = c
            }
            out.append(" ")
        }
        out = out.replacingOccurrences(of: #""[^"]*(\.sqlite|://[^"]*)""#, with: "\"…\"", options: .regularExpression)
        return out.filter { !$0.isWhitespace }
    }

    /// A regular expression for a normalized line, in which `"…"` is any
    /// string literal or name.
    static func pattern(_ code: String) -> String {
        code.components(separatedBy: "\"…\"").map(NSRegularExpression.escapedPattern(for:))
            .joined(separator: #"(?:"[^"]*"|[A-Za-z_][A-Za-z0-9_.]*)"#)
    }

    static func captures(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
