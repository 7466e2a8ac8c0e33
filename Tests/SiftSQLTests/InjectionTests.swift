import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Text that would change a statement if it were ever written into one:
/// as values it must only be bound (the SQL is byte for byte the SQL of a
/// harmless value, and SQLite and PostgreSQL return the evaluator's rows);
/// as key paths, `%K` arguments, sort keys, fetched properties and entity
/// names it must be refused, since identifiers come only from the schema.
struct InjectionTests {
    static let hostile = HostileStrings.all

    /// Notes (one attribute in a column whose name needs quoting) with
    /// to-many tags and a to-one parent.
    static let schema = StoreSchema([
        Entity("Note", table: "notes", attributes: [
            Attribute("body", .string),
            Attribute("rank", .integer, column: "odd \"col\"; --"),
        ], relationships: [
            .toMany("tags", "Tag", inverseColumn: "note_id"),
            .toOne("parent", "Note", column: "parent_id"),
        ]),
        Entity("Tag", table: "tags", attributes: [
            Attribute("name", .string)
        ], relationships: [
            .toOne("note", "Note", column: "note_id")
        ]),
    ])

    /// The same rows in memory, in SQLite and (when a server is there) in
    /// PostgreSQL: harmless text, every hostile string that a database can
    /// hold (not NUL), and a nil.
    final class Store {
        let sqlite: DatabaseQueue
        let postgres: PostgresClient?
        let notes: [Value]
        let rowCounts: [String: Int]

        init(postgresSchema: String) throws {
            let texts: [String?] =
                ["plain", "O'Brien", "say \"hi\"", "back\\slash", "50%", "a_b", "xy", "x", "é", nil]
                + InjectionTests.hostile.filter { !$0.unicodeScalars.contains("\u{0}") }
            var inserts: [Dialect: [BoundStatement]] = [:]
            var notes: [Value] = []
            let rank = InjectionTests.schema.entity(named: "Note")!.attribute(named: "rank")!.column
            for dialect in [Dialect.sqlite, .postgreSQL] {
                let q = dialect.quote
                func p(_ n: Int) -> String { dialect == .sqlite ? "?\(n)" : "$\(n)" }
                inserts[dialect] = texts.enumerated().flatMap { i, text -> [BoundStatement] in
                    let tagName = texts[(i + 1) % texts.count]
                    return [
                        BoundStatement(
                            sql: "INSERT INTO \(q("notes")) (\(q("id")), \(q("body")), \(q(rank))) VALUES (\(p(1)), \(p(2)), \(p(3)))",
                            bindings: [.integer(Int64(i + 1)), text.map(SQLValue.text) ?? .null, .integer(Int64(i % 3))]),
                        BoundStatement(
                            sql: "INSERT INTO \(q("tags")) (\(q("id")), \(q("name")), \(q("note_id"))) VALUES (\(p(1)), \(p(2)), \(p(3)))",
                            bindings: [.integer(Int64(i + 1)), tagName.map(SQLValue.text) ?? .null, .integer(Int64(i + 1))]),
                    ]
                }
            }
            for (i, text) in texts.enumerated() {
                let tagName = texts[(i + 1) % texts.count]
                notes.append([
                    "id": .int(i + 1), "body": text.map(Value.string) ?? .null, "rank": .int(i % 3),
                    "tags": [["id": .int(i + 1), "name": tagName.map(Value.string) ?? .null]],
                ])
            }
            self.notes = notes
            rowCounts = ["notes": texts.count, "tags": texts.count]

            sqlite = try DatabaseQueue(configuration: .sift)
            try sqlite.write { db in
                for s in InjectionTests.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
                for s in inserts[.sqlite] ?? [] { try db.execute(sql: s.sql, arguments: s.arguments) }
            }
            postgres = try PostgresClient.fromEnvironment(schema: postgresSchema)
            if let pg = postgres {
                for s in InjectionTests.schema.createStatements(dialect: .postgreSQL) { try pg.execute(s) }
                for s in inserts[.postgreSQL] ?? [] { _ = try pg.query(s) }
            }
        }

        /// The ids of the notes the evaluator keeps.
        func memoryIDs(_ filter: Filter) throws -> [Int] {
            try FetchSpecification(entity: "Note", filter: filter).execute(on: notes).map { row in
                guard case .dictionary(let d) = row, case .int(let id)? = d["id"] else { return -1 }
                return id
            }
        }

        func sqliteIDs(_ statement: BoundStatement) throws -> [Int] {
            try sqlite.read { db in try Int.fetchAll(db, sql: statement.sql, arguments: statement.arguments) }
        }

        func postgresIDs(_ statement: BoundStatement, _ pg: PostgresClient) throws -> [Int] {
            try pg.query(statement).map { row in
                if case .integer(let i)? = row.first { return Int(i) }
                return -1
            }
        }

        /// Every table is still there with all its rows.
        func expectTablesIntact() throws {
            for (table, count) in rowCounts.sorted(by: { $0.key < $1.key }) {
                let sql = "SELECT COUNT(*) FROM \(Dialect.sqlite.quote(table))"
                #expect(try sqlite.read { db in try Int.fetchOne(db, sql: sql) } == count, "SQLite \(table)")
                if let pg = postgres {
                    #expect(try pg.query(sql, []) == [[.integer(Int64(count))]], "PostgreSQL \(table)")
                }
            }
            let tables = try sqlite.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
            #expect(tables == ["notes", "tags"])
            if let pg = postgres {
                let names = try pg.query(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1", [])
                #expect(names == [[.text("notes")], [.text("tags")]])
            }
        }
    }

    // MARK: - Values

    /// A predicate with a string in it, made for any string.
    struct ValueForm {
        var name: String
        var make: (String) -> (format: String, arguments: [any FormatArgumentConvertible])
        /// The error lowering must give for a string, when it has to refuse it.
        var refusal: (String, Dialect) -> SQLLoweringError.Code? = { _, _ in nil }

        init(
            _ format: String, note: String = "", _ arguments: @escaping (String) -> [any FormatArgumentConvertible] = { [$0] }
        ) {
            name = format + note
            make = { (format, arguments($0)) }
        }

        init(name: String, _ make: @escaping (String) -> (format: String, arguments: [any FormatArgumentConvertible])) {
            self.name = name
            self.make = make
        }
    }

    /// MATCHES with `s` as a literal pattern: one over the pattern length
    /// limit is refused (as the evaluator refuses it), and PostgreSQL's
    /// regular expressions are not given line breaks.
    static var matchesForm: ValueForm {
        var form = ValueForm("body MATCHES %@", note: " (exact)") { [regexLiteral($0)] }
        form.refusal = { s, dialect in
            if regexLiteral(s).utf8.count > RegexLimits.default.maximumPatternLength { return .limit }
            if dialect == .postgreSQL, s.unicodeScalars.contains(where: { $0.properties.isWhitespace && $0 != " " }) {
                return .unsupported
            }
            return nil
        }
        return form
    }

    /// `s` as a LIKE pattern that matches exactly `s`.
    static func likeLiteral(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if c == "*" || c == "?" || c == "\\" { out += "\\" }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// `s` as a regular expression that matches exactly `s`.
    static func regexLiteral(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if c.isASCII && !c.properties.isAlphabetic && !("0"..."9").contains(c) && c != " " && c.value >= 0x20 {
                out += "\\"
            }
            out.unicodeScalars.append(c)
        }
        return out
    }

    static var valueForms: [ValueForm] {
        [
            ValueForm("body == %@"),
            ValueForm("body != %@"),
            ValueForm("NOT body == %@"),
            ValueForm("%@ == body"),
            ValueForm("body ==[cd] %@"),
            ValueForm("body < %@"),
            ValueForm("body >=[c] %@"),
            ValueForm("body BETWEEN %@") { [[$0, $0]] },
            ValueForm("body IN %@") { [[$0, "zz"]] },
            ValueForm("body IN[c] %@") { [[$0, "zz"]] },
            ValueForm("NOT body IN %@") { [[$0, "zz"]] },
            ValueForm("body BEGINSWITH %@"),
            ValueForm("body BEGINSWITH[c] %@"),
            ValueForm("body CONTAINS %@"),
            ValueForm("body CONTAINS[cd] %@"),
            ValueForm("body ENDSWITH %@"),
            ValueForm("%@ IN body"),
            ValueForm("%@ CONTAINS body"),
            ValueForm("body LIKE %@", note: " (exact)") { [likeLiteral($0)] },
            ValueForm("body LIKE[c] %@"),
            matchesForm,
            ValueForm("ANY tags.name == %@"),
            ValueForm("NONE tags.name CONTAINS[c] %@"),
            ValueForm("SUBQUERY(tags, $t, $t.name BEGINSWITH %@).@count > 0"),
            ValueForm(name: "body == <literal in the format string>") { s in
                ("body == " + FormatPrinter.format(ExpressionNode.constant(.string(s))), [])
            },
        ]
    }

    /// A harmless string that lowers to the same SQL as `s` would if `s`
    /// were harmless: BEGINSWITH takes index ranges for an ASCII prefix, one
    /// more when a non-ASCII character decomposes to begin with its last
    /// character, and more for the earlier characters that a non-ASCII
    /// character decomposes to (the Kelvin sign to `K`), so the stand-in
    /// keeps those traits (the same number of such characters, in front).
    static func standIn(for s: String) -> String {
        guard s.unicodeScalars.allSatisfy(\.isASCII) else { return s.count == 1 ? "é" : "éé" }
        let singletons = s.unicodeScalars.dropLast().filter { decomposed.singletons.contains($0) }.count
        let head = singletons > 0 ? String(repeating: "K", count: singletons) : (s.count == 1 ? "" : "x")
        return head + (decomposed.starts.contains(s.unicodeScalars.last!) ? "y" : "1")
    }

    /// The ASCII characters that begin the canonical decomposition of a
    /// non-ASCII character (`starts`), and those that are all of one
    /// (`singletons`).
    static let decomposed: (starts: Set<Unicode.Scalar>, singletons: Set<Unicode.Scalar>) = {
        var starts = Set<Unicode.Scalar>(), singletons = Set<Unicode.Scalar>()
        for v in UInt32(0x80)...0x2FFFF {
            guard let u = Unicode.Scalar(v) else { continue }
            let d = Array(String(Character(u)).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard let first = d.first, first.isASCII else { continue }
            starts.insert(first)
            if d.count == 1 { singletons.insert(first) }
        }
        return (starts, singletons)
    }()

    @Test func valuesAreOnlyBound() throws {
        let store = try Store(postgresSchema: "sift_injection_values")
        var ran = 0
        for form in Self.valueForms {
            for text in Self.hostile {
                let (format, arguments) = form.make(text)
                let (harmlessFormat, harmlessArguments) = form.make(Self.standIn(for: text))
                let label = "\(form.name) with \(text.debugDescription.prefix(60))"
                let filter = try Filter(format, arguments: arguments)
                let harmless = try Filter(harmlessFormat, arguments: harmlessArguments)
                let expected: [Int]
                do {
                    expected = try store.memoryIDs(filter)
                } catch let error as EvaluationError {
                    #expect(error.code == .regexLimit && form.refusal(text, .sqlite) == .limit, "\(label): \(error)")
                    expected = []
                }
                for dialect in [Dialect.sqlite, .postgreSQL] {
                    let reference = try FetchSpecification(entity: "Note", filter: harmless).sql(in: Self.schema, dialect: dialect)
                    let request = FetchSpecification(entity: "Note", filter: filter)
                    // Neither database binds a NUL faithfully.
                    if let refusal = text.utf8.contains(0) ? .unsupported : form.refusal(text, dialect) {
                        #expect(throws: SQLLoweringError.self, "\(label) (\(dialect))") {
                            do {
                                _ = try request.sql(in: Self.schema, dialect: dialect)
                            } catch let error as SQLLoweringError {
                                #expect(error.code == refusal, "\(label) (\(dialect)): \(error)")
                                throw error
                            }
                        }
                        continue
                    }
                    let statement = try request.sql(in: Self.schema, dialect: dialect).statement
                    #expect(statement.sql == reference.statement.sql, "\(label) (\(dialect)): the SQL changed")
                    #expect(statement.bindings.count == reference.statement.bindings.count, "\(label) (\(dialect))")
                    switch dialect {
                    case .sqlite:
                        #expect(try store.sqliteIDs(statement) == expected, "\(label) on SQLite\n\(statement)")
                    default:
                        guard let pg = store.postgres else { continue }
                        #expect(try store.postgresIDs(statement, pg) == expected, "\(label) on PostgreSQL\n\(statement)")
                    }
                    ran += 1
                }
            }
        }
        #expect(ran > Self.valueForms.count * Self.hostile.count * (store.postgres == nil ? 1 : 2) * 9 / 10)
        try store.expectTablesIntact()
    }

    // MARK: - Identifiers

    /// Names shaped like identifiers that the schema does not have: look-alikes
    /// of its keys and the databases' own hidden columns and catalogs.
    static let unknownNames = [
        "bоdy", "ｂｏｄｙ", "bodу", "body_", "_body", "rowid", "_rowid_", "oid", "ctid", "xmin", "sqlite_master",
        "pg_catalog", "notes", "t0", "#SELECT", "#DROP",
    ]

    /// The lowering error of `request` on both dialects (nil if either lowers).
    private func loweringErrors(_ request: FetchSpecification) -> [SQLLoweringError]? {
        var errors: [SQLLoweringError] = []
        for dialect in [Dialect.sqlite, .postgreSQL] {
            do {
                let query = try request.sql(in: Self.schema, dialect: dialect)
                Issue.record("lowered to \(query.statement)")
                return nil
            } catch {
                errors.append(error)
            }
        }
        return errors
    }

    @Test func keyPathsComeOnlyFromTheSchema() throws {
        var refused = 0
        // %K arguments: a whole key path, a key after a to-one or to-many
        // relationship, after an attribute, and inside an aggregate.
        let keyForms: [(format: String, keyPath: (String) -> String)] = [
            ("%K == 1", { $0 }),
            ("%K BEGINSWITH 'x'", { $0 }),
            ("%K == nil", { $0 + ".name" }),
            ("%K == 'x'", { "body." + $0 }),
            ("ANY %K == 'x'", { "tags." + $0 }),
            ("%K == 1", { "parent." + $0 }),
            ("ANY %K == 1", { "tags.note." + $0 }),
            ("%K > 1", { "tags.@sum." + $0 }),
            ("SUBQUERY(tags, $t, $t.name == 'x' AND %K == 'x').@count > 0", { "$t." + $0 }),
        ]
        for name in Self.hostile + Self.unknownNames {
            for form in keyForms {
                let keyPath = form.keyPath(name)
                let filter = try Filter(form.format, keyPath)
                let errors = loweringErrors(FetchSpecification(entity: "Note", filter: filter))
                for e in errors ?? [] {
                    // `tags.@x` is a collection operator, and one without a SQL form.
                    let code: SQLLoweringError.Code = keyPath.hasPrefix("tags.@") && !keyPath.hasPrefix("tags.@sum") ? .unsupported : .unknownKey
                    #expect(e.code == code, "\(form.format) with \(keyPath.debugDescription): \(e)")
                    refused += 1
                }
            }
        }
        // Written in the format string: bare keys are ASCII (the look-alikes
        // do not parse); the others are unknown keys.
        var parsed = 0
        for name in Self.unknownNames {
            guard name.unicodeScalars.allSatisfy(\.isASCII) else {
                #expect(throws: ParseError.self, "\(name)") { try Filter("\(name) == 1") }
                continue
            }
            let filter = try Filter("\(name) == 1")
            parsed += 1
            for e in loweringErrors(FetchSpecification(entity: "Note", filter: filter)) ?? [] {
                #expect(e.code == .unknownKey, "\(name): \(e)")
                refused += 1
            }
        }
        for name in Self.hostile {
            guard let filter = try? Filter("\(name) == 1") else { continue }
            for dialect in [Dialect.sqlite, .postgreSQL] {
                // What parses is an expression, never SQL text.
                if let query = try? FetchSpecification(entity: "Note", filter: filter).sql(in: Self.schema, dialect: dialect) {
                    #expect(!query.statement.sql.contains(name), "\(name.debugDescription): \(query.statement)")
                }
            }
        }
        #expect(parsed == Self.unknownNames.count - 3)
        #expect(refused == ((Self.hostile.count + Self.unknownNames.count) * keyForms.count + parsed) * 2)
    }

    @Test func sortKeysPropertiesAndEntitiesComeOnlyFromTheSchema() throws {
        for name in Self.hostile + Self.unknownNames {
            let label = name.debugDescription
            for key in [SortKey(name), SortKey(name, ascending: false, comparison: .caseInsensitive), SortKey("parent." + name)] {
                for e in loweringErrors(FetchSpecification(entity: "Note", sort: [key])) ?? [] {
                    #expect(e.code == .unknownKey, "sort by \(label): \(e)")
                }
            }
            if let keys = try? SortKey.parse(name) {
                #expect(loweringErrors(FetchSpecification(entity: "Note", sort: keys)) != nil, "sort \(label)")
            }
            for properties in [[name], ["body", name], ["parent." + name]] {
                let request = FetchSpecification(entity: "Note", distinct: true, properties: properties)
                for e in loweringErrors(request) ?? [] {
                    #expect(e.code == .unknownKey, "fetch \(properties.last ?? ""): \(e)")
                }
            }
            if let entity = Self.schema.entity(named: name) {
                // A table's name (`notes`) finds its entity, as the plural of
                // an entity's name does (StoreSchema.entity(named:)): the SQL then
                // names the schema's table, never the text as written.
                #expect(name == entity.table || name == entity.name.lowercased() + "s", "entity \(label)")
                for dialect in [Dialect.sqlite, .postgreSQL] {
                    let sql = try FetchSpecification(entity: name).sql(in: Self.schema, dialect: dialect).statement.sql
                    #expect(sql.contains(" FROM " + dialect.quote(entity.table) + " "), "entity \(label): \(sql)")
                }
                continue
            }
            for e in loweringErrors(FetchSpecification(entity: name)) ?? [] {
                #expect(e.code == .unknownEntity, "entity \(label): \(e)")
            }
        }
    }

    /// A key that matches a schema key only when case is ignored (the
    /// Kelvin sign lowercases to `k`) lowers with the schema's identifiers,
    /// never with the text as written.
    @Test func keysMatchedIgnoringCaseUseTheSchemaSpelling() throws {
        for dialect in [Dialect.sqlite, .postgreSQL] {
            let written = try FetchSpecification(entity: "Note", filter: Filter("%K == 1", "ran\u{212A}"))
                .sql(in: Self.schema, dialect: dialect).statement
            let plain = try FetchSpecification(entity: "Note", filter: Filter("rank == 1"))
                .sql(in: Self.schema, dialect: dialect).statement
            #expect(written == plain)
            #expect(!written.sql.contains("\u{212A}"))
            #expect(written.sql.contains(dialect.quote("odd \"col\"; --")))
        }
    }
}
