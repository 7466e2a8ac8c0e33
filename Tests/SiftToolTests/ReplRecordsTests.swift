import Foundation
import Sift
import Testing

@testable import SiftTool

/// The REPL on a JSON or JSON Lines file evaluates predicates on the
/// records' bytes, in chunks on several threads: its answers (matches,
/// counts, sorted order, errors) are those of decoding every record and
/// filtering the rows, as the REPL did before.
struct ReplRecordsTests {
    /// `count` records as JSON texts: objects of every kind of value, with
    /// escapes, surrogate pairs, non-ASCII names and values, duplicate names,
    /// big numbers, nulls and empty containers; with `others`, some records
    /// that are not objects.
    static func records(_ count: Int, others: Bool = false) -> [String] {
        let names = ["Ann", "ann lee", "Åsa Çelik", "JOANNA Ångström", "Émile", "Søren", "Zoë", "a\\\"b", "tab\\there",
                     "\\u00e9cole", "\\ud83d\\ude00 smile", "", "Marianne", "x\\\\y"]
        let numbers = ["0", "-0", "1", "-17", "30", "31", "2.5", "1e3", "1.5e-7", "123456789012345678901234567890",
                       "-9223372036854775808", "1e300", "0.1"]
        return (0..<count).map { i in
            // The same records on every run: each choice is a hash of the
            // record's number and of how many choices were made for it.
            var choices: UInt64 = 0
            func next() -> Int {
                choices += 1
                var z = choices &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(i) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 31)) &* 0x94D0_49BB_1331_11EB
                return Int((z ^ (z >> 29)) % 1_000_003)
            }
            func pick<T>(_ items: [T]) -> T { items[next() % items.count] }
            if others && i % 11 == 5 { return pick(["5", "\"text\"", "[1, 2]", "null", "true", "[]", "{}"]) }
            var members = ["\"id\": \(i)", "\"name\": \"\(pick(names))\"", "\"age\": \(next() % 100)"]
            members.append("\"score\": " + pick(numbers + ["0.25", "0.75", "null"]))
            let tags = (0..<next() % 4).map { _ in "\"" + pick(["café", "swift", "json", "Ann"]) + "\"" }
            members.append("\"tags\": [" + tags.joined(separator: ", ") + "]")
            switch next() % 4 {
            case 0: members.append("\"author\": null")
            case 1: members.append("\"author\": {}")
            default: members.append("\"author\": {\"name\": \"\(pick(names))\", \"born\": \(1900 + next() % 100)}")
            }
            if next() % 3 == 0 { members.append("\"big\": " + pick(numbers)) }
            if next() % 5 == 0 { members.append("\"dup\": \"one\", \"dup\": \(next() % 3)") }
            if next() % 7 == 0 { members.append("\"état\": \"\(pick(names))\"") }
            if next() % 13 == 0 { members.append(#""esc\u0061ped": "{\"x\": [1, 2]}""#) }
            if next() % 9 == 0 { members.append("\"nested\": {\"a\": {\"b\": [\(pick(numbers)), {\"c\": null}]}}") }
            let turn = next() % members.count
            members = Array(members[turn...] + members[..<turn])
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    static let predicates = [
        "age > 30", "name CONTAINS[c] 'ann'", "age > 30 AND score < 0.5 OR author.name == 'Ann'",
        "name BEGINSWITH[cd] 'e'", "name ==[cd] 'zoe'", "name == 'a\"b'", "name CONTAINS '😀'", "ANY tags == 'café'",
        "tags.@count > 1", "NONE tags == 'Ann'", "author == nil", "author.born < 1950", "author.name IN {'Ann', 'Zoë'}",
        "big > 1e20", "big == 123456789012345678901234567890", "big == nil", "score BETWEEN {0.1, 0.8}",
        "dup == 2", "nested.a.b[FIRST] == 0", "ANY nested.a.b.c == nil", "modulus:by:(id, 7) == 3",
        "SUBQUERY(tags, $t, $t BEGINSWITH 's').@count >= 1", "TRUEPREDICATE", "FALSEPREDICATE", "SELF == nil",
        "name MATCHES '.*[lL]ee'", "age > $MIN", "score < 0.5 AND NOT (author.name == nil)",
    ]

    /// A file holding `texts` as JSON Lines (blank lines between some, so
    /// that rows and lines differ) or as a JSON array over several lines.
    /// Gives the line each record starts on.
    static func write(_ texts: [String], array: Bool, to url: URL) throws -> [Int] {
        var out = array ? "[\n" : "\n"
        var lines: [Int] = []
        var line = 2
        for (i, text) in texts.enumerated() {
            lines.append(line)
            if array {
                // Some elements span lines; all the commas end one.
                let spread = i % 4 == 0 ? text.replacingOccurrences(of: ", \"id\"", with: ",\n  \"id\"") : text
                out += spread + (i == texts.count - 1 ? "\n]\n" : ",\n")
                line += spread.filter { $0 == "\n" }.count + 1
            } else {
                out += text + "\n" + (i % 5 == 0 ? "\n  \n" : "")
                line += i % 5 == 0 ? 3 : 1
            }
        }
        try Data(out.utf8).write(to: url)
        return lines
    }

    /// What the REPL did before: every record decoded into a row, filtered
    /// through a `ValueTable`, sorted with `Sorting`; a failure names the
    /// first row whose evaluation fails.
    enum Expected {
        case matches([Int])
        /// Row (from 0) is the first whose evaluation fails.
        case failure(row: Int)
        /// The matches cannot be sorted: the message.
        case unsorted(String)
    }

    static func expected(_ table: ValueTable, _ source: String, variables: [String: Value], sort: [SortKey]) -> Expected {
        let rows = table.rows
        let filter = try! Filter(source).substituting(variables, allowingUnbound: true)
        guard var matches = try? table.indices(where: filter, variables: variables) else {
            let compiled = filter.compiled()
            let first = rows.indices.first { (try? compiled.evaluate(with: rows[$0], variables: variables)) == nil }
            return .failure(row: first ?? -1)
        }
        do {
            if !sort.isEmpty { matches = try Sorting.permutation(matches.map { rows[$0] }, by: sort).map { matches[$0] } }
        } catch {
            return .unsorted(error.message)
        }
        return .matches(matches)
    }

    /// The message of the `CommandFailure` that `body` throws.
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch let failure as CommandFailure {
            return failure.message
        } catch {
            return "\(error)"
        }
        return nil
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Every predicate, unsorted and sorted, on records cut into many small
    /// chunks (records straddle their ends) evaluated on three threads.
    @Test(arguments: [false, true], [false, true])
    func answersAreThoseOfTheDecodedRows(array: Bool, others: Bool) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let texts = Self.records(1_000, others: others)
        let url = dir.appendingPathComponent(array ? "people.json" : "people.jsonl")
        let lines = try Self.write(texts, array: array, to: url)
        let rows = try texts.map { try JSONValue(parsing: $0).predicateValue }
        let table = ValueTable(rows)
        let loaded = try JSONRecords.load(path: url.path, jobs: 3, chunkSize: 2048)
        #expect(loaded.records.count == rows.count)
        #expect(loaded.records.parts.count > 20, "many chunks")
        #expect(loaded.records.isArray == array)
        // The table's columns: every name in first-seen order, as decoding finds them.
        var names = KeyOrder()
        for text in texts { if case .object(let object) = try JSONValue(parsing: text) { names.add(object.keys) } }
        #expect(loaded.keys == names.names)
        #expect(names.names.contains("escaped") && names.names.contains("état"))
        // :schema's kinds of value under each name, as the decoded rows have them.
        var kinds: [String: Set<String>] = [:]
        for case .dictionary(let d) in rows {
            for (k, v) in d where !v.isNull { kinds[k, default: []].insert(v.typeName) }
        }
        #expect(loaded.records.kinds() == kinds)
        let collection = Dataset.Collection(
            name: "people", rows: [], columns: loaded.keys, keyPaths: Dataset.keyPaths(loaded.sample), primaryKeys: nil,
            records: loaded.records)
        let session = ReplSession(
            dataset: Dataset(origin: url.path, collections: [collection], schema: nil, database: nil), width: 400)
        session.handle(":limit 30").expectOK()
        session.handle(":set $MIN = 40").expectOK()
        let variables: [String: Value] = ["MIN": 40]
        // The row each number shows is the record read from the file.
        for i in [0, 1, 500, rows.count - 1] { #expect(loaded.records.value(at: i) == rows[i]) }
        for sort in ["none", "age DESC, id", "author.name, score DESC", "dup, escaped DESC, big, id"] {
            session.handle(":sort " + sort).expectOK()
            let keys = sort == "none" ? [] : try SortKey.parse(sort)
            for source in Self.predicates {
                // All the matches, and the first ones as the table shows them.
                let filter = try Filter(source).substituting(variables, allowingUnbound: true)
                let all = Result { try session.matches(filter) }
                let reply = session.handle(source)
                switch Self.expected(table, source, variables: variables, sort: keys) {
                case .matches(let matches):
                    #expect(!reply.isError, "\(source): \(reply.output)")
                    #expect((try? all.get()) == matches, "\(source) sorted by \(sort)")
                    #expect(ReplSessionTests.rowNumbers(reply.output) == matches.prefix(30).map { $0 + 1 }, "\(source)")
                    let summary = matches.count == 1 ? "1 of \(rows.count) matches" : "\(matches.count) of \(rows.count) match"
                    #expect(reply.output.contains(summary), "\(source)")
                case .unsorted(let message):
                    #expect(reply.isError, "\(source)")
                    #expect(reply.output.hasPrefix("error: " + message), "\(source): \(reply.output)")
                case .failure(let row):
                    #expect(reply.isError, "\(source)")
                    if case .failure(let failure as JSONRecords.Failure) = all { #expect(failure.index == row) } else {
                        Issue.record("\(source): \(all)")
                    }
                    #expect(reply.output.hasPrefix("row \(row + 1) (line \(lines[row])): error: "), "\(source): \(reply.output)")
                }
            }
        }
    }

    /// A JSON Lines file and the same records as one array, loaded from the
    /// command line: the counts match, an error names the record, `:why`
    /// and `:sort` work on the file's rows.
    @Test func sessionsOnAFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for array in [false, true] {
            let url = dir.appendingPathComponent(array ? "mixed.json" : "mixed.jsonl")
            let texts = [#"{"a": 1, "b": "x"}"#, #"{"a": 2, "b": "y"}"#, #"{"a": "z", "b": "é"}"#, #"{"a": 0}"#]
            _ = try Self.write(texts, array: array, to: url)
            let rows = try texts.map { try JSONValue(parsing: $0).predicateValue }
            let s = ReplSession(dataset: try Dataset.load(path: url.path), width: 200)
            #expect(s.banner.contains("mixed (4)"))
            #expect(ReplSessionTests.rowNumbers(s.handle("b != nil").output) == [1, 2, 3])
            let failed = s.handle("a > 0")
            #expect(failed.isError)
            // Row 3 is on line 4: a blank line or the bracket comes first.
            #expect(failed.output.hasPrefix("row 3 (line \(array ? 4 : 6)): error: "), "\(failed.output)")
            #expect(failed.output.contains("a > 0"))
            s.handle(":sort b DESC").expectOK()
            let sorted = s.handle("a != 0")
            let order = try Sorting.permutation(Array(rows[0..<3]), by: SortKey.parse("b DESC")).map { $0 + 1 }
            #expect(ReplSessionTests.rowNumbers(sorted.output) == order)
            #expect(Set(order) == [1, 2, 3])
            #expect(sorted.output.contains("3 of 4 match"))
            #expect(sorted.output.contains("é"))
            let why = s.handle(":why 2 a == 2 AND b == 'x'")
            #expect(why.output.contains("✗ a == 2 AND b == \"x\""), "\(why.output)")
            #expect(why.output.contains("    ✓ a == 2"))
            #expect(why.output.contains("        b = \"y\""))
            #expect(s.handle(":why 5").output.contains("no row 5: mixed has rows 1 to 4"))
            #expect(s.handle(":schema").output.contains("a: integer | string"))
            #expect(s.completionWords.contains("b"))
        }
    }

    /// A file with a bad record is refused at load with the record's line
    /// and column, wherever the record is in the file.
    @Test func aBadRecordIsRefusedWithItsPlace() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = Self.records(300)
        let lines = dir.appendingPathComponent("bad.jsonl")
        try Data((good + [#"{"a": 1, "b": tru}"#] + good).joined(separator: "\n").utf8).write(to: lines)
        let array = dir.appendingPathComponent("bad.json")
        try Data(("[" + good.joined(separator: ",\n") + ",\n" + #"  {"a": [1, 2,]}"# + "]").utf8).write(to: array)
        for (url, message) in [
            (lines, "invalid JSON at line 301, column 15: invalid literal"),
            (array, "invalid JSON at line 301, column 15: unexpected character"),
        ] {
            for chunkSize in [1 << 20, 1000] {
                #expect(Self.failure { _ = try JSONRecords.load(path: url.path, jobs: 2, chunkSize: chunkSize) } == message)
            }
            #expect(Self.failure { _ = try Dataset.load(path: url.path) } == url.path + ": " + message)
        }
    }
}
