import Foundation
import Sift
import SiftSQL
import SiftTestSupport
import Testing

/// The SQL of a fixed set of fetches over ``Library``'s schema, in each
/// dialect, against the files in `Tests/Fixtures/golden/`
/// (`<name>.sqlite.sql`, `<name>.postgresql.sql`, `<name>.duckdb.sql`): the select and count
/// statements with their bindings, or the error when the fetch is refused,
/// compared byte for byte. A change to the lowering that changes any SQL
/// shows in the diff of these files.
///
/// A missing or different file is a failure. After a change meant to change
/// the SQL, regenerate them and review the diff:
///
///     SIFT_UPDATE_GOLDEN=1 swift test --filter GoldenSQLTests
///
/// (`make golden`, which builds first). The differential suite checks that
/// the SQL answers as memory does; these files only pin its text.
struct GoldenSQLTests {
    /// A named fetch: the name is the file's.
    struct Fetch: Sendable, CustomTestStringConvertible {
        var name: String
        var request: @Sendable () throws -> FetchSpecification
        var testDescription: String { name }
    }

    static func fetch(
        _ name: String, _ entity: String = "Book", _ format: String? = nil, _ arguments: [any FormatArgumentConvertible & Sendable] = [],
        sort: [SortKey] = [], offset: Int = 0, limit: Int? = nil, distinct: Bool = false, properties: [String]? = nil
    ) -> Fetch {
        Fetch(name: name) {
            FetchSpecification(
                entity: entity, filter: try format.map { try Filter($0, arguments: arguments.map { $0 as any FormatArgumentConvertible }) }, sort: sort, offset: offset,
                limit: limit, distinct: distinct, properties: properties)
        }
    }

    /// Every operator family, the options, ANY/ALL/NONE, SUBQUERY, the
    /// aggregates, IN lists, key-to-key comparisons, sorts, offsets and
    /// limits, to-one joins, to-many and many-to-many relationships, a
    /// projection. Names are file names: add at the end, and never reuse one.
    static let fetches: [Fetch] = [
        fetch("all-books"),
        fetch("equal-integer", "Book", "year == 2000"),
        fetch("not-equal-optional", "Book", "year != 2000"),
        fetch("not-equal-required", "Book", "title != 'x'"),
        fetch("ordering-doubles", "Book", "price >= 10.5 AND price < 20"),
        fetch("nil-checks", "Book", "author == nil OR code != nil OR year == nil"),
        fetch("between", "Book", "year BETWEEN {1990, 2000}"),
        fetch("in-integer-list", "Book", "year IN {1995, 2000, nil}"),
        fetch("in-string-argument-cd", "Book", "code IN[cd] %@", [["a_b", "café", "İstanbul"]]),
        fetch("in-empty-list", "Book", "year IN {}"),
        fetch("beginswith", "Book", "title BEGINSWITH 'A'"),
        fetch("contains-cd", "Book", "title CONTAINS[cd] 'stra'"),
        fetch("endswith-c", "Book", "title ENDSWITH[c] 'E'"),
        fetch("equal-c-d", "Book", "title ==[c] 'ann' OR code ==[d] 'cafe' OR title ==[cd] 'emile'"),
        fetch("like", "Book", "title LIKE 'a*b?' OR code LIKE[c] '*100%*'"),
        fetch("matches", "Book", "title MATCHES '[A-Z].*' AND code MATCHES[c] 'a(n|m)+'"),
        fetch("date-argument", "Book", "published > %@", [Date(timeIntervalSince1970: 1_000_000_000)]),
        fetch("booleans-and-reference-dates", "Author", "active == YES AND rating >= 2.5 AND born < %@",
              [Date(timeIntervalSinceReferenceDate: 0)]),
        fetch("to-one-key-paths", "Book", "author.name BEGINSWITH[cd] 'emi' AND author.age > 40"),
        fetch("to-one-from-chapter", "Chapter", "book.title BEGINSWITH 'A' AND book.author.active == NO AND pages > 3"),
        fetch("key-against-key", "Book", "title ==[c] author.name OR year > author.age"),
        fetch("not-compound", "Book", "NOT (year > 2000 OR price == nil)"),
        fetch("any-to-many", "Book", "ANY chapters.pages > 30"),
        fetch("all-to-many", "Book", "ALL chapters.pages > 5"),
        fetch("none-many-to-many-c", "Book", "NONE tags.name ==[c] 'ann'"),
        fetch("constant-in-to-many", "Book", "'Ann' IN tags.name"),
        fetch("subquery-count", "Book", "SUBQUERY(chapters, $c, $c.pages > 10 AND $c.name BEGINSWITH[c] 'a').@count > 1"),
        fetch("subquery-outer-keys", "Book", "SUBQUERY(chapters, $c, $c.name == title OR $c.pages > year).@count == 0"),
        fetch("count-aggregates", "Book", "chapters.@count >= 2 AND tags.@count == 0"),
        fetch("sum-avg-aggregates", "Book", "chapters.@sum.pages > 50 OR chapters.@avg.pages < 10"),
        fetch("min-max-aggregates", "Book", "chapters.@max.pages == chapters.@min.pages"),
        fetch("sort-offset-limit", sort: [.ascending("title"), .descending("year")], offset: 5, limit: 10),
        fetch("sort-to-one-case-insensitive", "Book", "year > 1995",
              sort: [.ascending("author.name", .caseInsensitive), .descending("price")], limit: 20),
        fetch("offset-only", "Book", "price != nil", offset: 3),
        fetch("projection-distinct", "Book", "ANY tags.name BEGINSWITH 'a'", sort: [.ascending("author.name")],
              distinct: true, properties: ["author.name", "year"]),
        fetch("ternary-operands", "Book", "TERNARY(year != nil, year, 0) > 1995 OR NOT TERNARY(price > 5, title, code) BEGINSWITH[c] 'a'"),
        fetch("first-last-ordered", "Book", "chapters[FIRST].pages > 10 AND tags[LAST].name != 'Ann'"),
    ]

    static let dialects: [Dialect] = [.sqlite, .postgreSQL, .duckDB]

    @Test(arguments: fetches, dialects)
    func goldenSQL(_ fetch: Fetch, _ dialect: Dialect) throws {
        let text = try Self.render(fetch, dialect)
        let url = Self.folder.appendingPathComponent("\(fetch.name).\(Self.suffix(dialect)).sql")
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("\(url.path) is missing; SIFT_UPDATE_GOLDEN=1 swift test --filter GoldenSQLTests writes it")
            return
        }
        if data != Data(text.utf8) {
            let old = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            let new = text.components(separatedBy: "\n")
            let line = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
            Issue.record("""
                \(url.lastPathComponent) differs from the SQL lowered now, from line \(line + 1):
                  file: \(line < old.count ? old[line] : "<end>")
                  now:  \(line < new.count ? new[line] : "<end>")
                SIFT_UPDATE_GOLDEN=1 swift test --filter GoldenSQLTests rewrites the files (review the diff)
                """)
        }
    }

    /// No file in the folder without its fetch: a renamed or removed fetch
    /// takes its files with it (removed when updating).
    @Test func noStaleFiles() throws {
        let expected = Set(Self.fetches.flatMap { f in Self.dialects.map { "\(f.name).\(Self.suffix($0)).sql" } })
        #expect(expected.count == Self.fetches.count * Self.dialects.count, "two fetches share a name")
        let present = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []
        for name in present where name.hasSuffix(".sql") && !expected.contains(name) {
            if Self.updating {
                try FileManager.default.removeItem(at: Self.folder.appendingPathComponent(name))
            } else {
                Issue.record("\(name) in Tests/Fixtures/golden has no fetch; SIFT_UPDATE_GOLDEN=1 removes it")
            }
        }
    }

    static var updating: Bool { ProcessInfo.processInfo.environment["SIFT_UPDATE_GOLDEN"] == "1" }

    static func suffix(_ dialect: Dialect) -> String {
        dialect == .sqlite ? "sqlite" : dialect == .postgreSQL ? "postgresql" : dialect.rawValue
    }

    static let folder = PackageFolder.url.appendingPathComponent("Tests/Fixtures/golden")

    /// The request, then its select and count statements with one line per
    /// binding (or the error that refuses it). ASCII only: other scalars of
    /// bound text are written `\u{…}`, so that no editor or tool normalises
    /// them.
    static func render(_ fetch: Fetch, _ dialect: Dialect) throws -> String {
        let request = try fetch.request()
        var lines = ["-- \(fetch.name) (\(suffix(dialect)))", "-- entity: \(request.entity ?? "-")"]
        if let filter = request.filter { lines.append("-- filter: " + escaped(filter.format, quotes: false)) }
        if !request.sort.isEmpty { lines.append("-- sort: " + request.sort.map(\.description).joined(separator: ", ")) }
        if request.offset != 0 { lines.append("-- offset: \(request.offset)") }
        if let limit = request.limit { lines.append("-- limit: \(limit)") }
        if request.distinct { lines.append("-- distinct") }
        if let properties = request.properties { lines.append("-- properties: " + properties.joined(separator: ", ")) }
        func statement(_ title: String, _ make: () throws -> BoundStatement) {
            lines.append("")
            lines.append("-- \(title)")
            do {
                let s = try make()
                lines.append(s.sql + ";")
                for (i, value) in s.bindings.enumerated() {
                    lines.append("-- \(dialect == .sqlite ? "?" : "$")\(i + 1) = \(describe(value))")
                }
            } catch {
                lines.append("-- refused: " + escaped("\(error)", quotes: false))
            }
        }
        statement("select") { try request.sql(in: Library.schema, dialect: dialect).statement }
        statement("count") { try request.countSQL(in: Library.schema, dialect: dialect) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let i): return "integer \(i)"
        case .real(let d): return "real \(d)"
        case .text(let s): return "text \"\(escaped(s))\""
        case .blob(let d): return "blob x'" + d.map { String(format: "%02x", $0) }.joined() + "'"
        case .boolean(let b): return "boolean \(b)"
        case .array(let items): return "array [" + items.map(describe).joined(separator: ", ") + "]"
        }
    }

    /// `s` with `\`, `"`, control characters and every non-ASCII scalar
    /// escaped as in a Swift literal.
    static func escaped(_ s: String, quotes: Bool = true) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\" where quotes: out += "\\\\"
            case "\"" where quotes: out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}
