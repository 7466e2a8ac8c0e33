import Foundation
import Testing

@testable import Sift

/// A ``ValueTable`` answers as filtering its rows does: the same rows, the
/// same errors.
struct ValueTableTests {
    /// The members as dictionaries, with keys missing, nil, NSNull, of
    /// another kind, a to-one that is not a dictionary, a set for an array,
    /// and a key spelled in two canonically equivalent ways.
    static let rows: [Value] = InPlaceReaderTests.members.enumerated().map { i, m in
        guard case .dictionary(var d) = InPlaceReaderTests.dynamicValue(m) else { fatalError() }
        if i % 5 == 0 { d["age"] = nil }
        if i % 7 == 0 { d["name"] = .null }
        if i % 11 == 0 { d["name"] = .nsNull }
        if i % 13 == 0 { d["score"] = .int(i % 3) }
        if i % 17 == 0, case .array(let tags)? = d["tags"] { d["tags"] = .set(Set(tags)) }
        if i % 19 == 0 { d["mentor"] = .null }
        if i % 23 == 0 { d["mentor"] = .string("Ann") }
        if i % 29 == 0 { d["tags"] = .string("x") }
        if i % 31 == 0 { d["age"] = .double(Double(m.age) + 0.5) }
        d[i % 2 == 0 ? "caf\u{E9}" : "cafe\u{301}"] = .int(i % 4)
        return .dictionary(d)
    }

    /// The members with nils only where the others have other kinds: the
    /// mentors are a column of dictionaries (some without a level), the tags
    /// a column of arrays, so both get columns of their own.
    static let regular: [Value] = InPlaceReaderTests.members.enumerated().map { i, m in
        guard case .dictionary(var d) = InPlaceReaderTests.dynamicValue(m) else { fatalError() }
        if i % 7 == 0 { d["name"] = .null }
        if i % 11 == 0 { d["tags"] = i % 2 == 0 ? .null : .nsNull }
        if i % 19 == 0 { d["mentor"] = .null }
        if i % 5 == 0, case .dictionary(var mentor)? = d["mentor"] {
            mentor["level"] = nil
            mentor["since"] = .int(i)
            d["mentor"] = .dictionary(mentor)
        }
        if i % 3 == 0, case .array(var tags)? = d["tags"] {
            tags.append(.int(i % 4))
            d["tags"] = .array(tags)
        }
        return .dictionary(d)
    }

    static let formats = InPlaceReaderTests.formats + [
        "age == nil", "age != nil", "name == nil", "name != 'ab'", "nothing == nil", "nothing != 1", "SELF.age > 30",
        "mentor.level + 1 > 2", "mentor == nil", "ANY tags == 'x' AND age > 20", "tags.@count > 1", "age > 30 OR name > 3",
        "mentor.name.length > 3", "SUBQUERY(tags, $t, $t == 'x').@count > 0", "score > $limit",
        "mentor.since > 100", "mentor.level == nil", "mentor.name == nil", "ANY tags == nil", "ALL tags != 'y'",
        "ANY tags ==[c] 'X'", "ANY tags > 1", "ALL tags == 'x' AND tags != nil", "name == ''", "name != ''",
        "mentor.name != ''",
    ]

    @Test func columnsOfDictionariesAndArrays() {
        let table = ValueTable(Self.regular)
        #expect(table.list([LiteralString("tags")]) != nil)
        #expect(table.column([LiteralString("mentor"), LiteralString("name")])?.keys == 2)
        #expect(table.column([LiteralString("mentor"), LiteralString("since")])?.keys == 2)
        #expect(table.strings([LiteralString("name")])?.present != nil)
        #expect(table.strings([LiteralString("mentor"), LiteralString("name")]) != nil)
        #expect(ValueTable([["s": "a"], ["s": "b"]]).strings([LiteralString("s")]).map { $0.present == nil } == true)
        #expect(table.strings([LiteralString("age")]) == nil)
        let mixed = ValueTable(Self.rows)
        #expect(mixed.list([LiteralString("tags")]) == nil)
        #expect(mixed.column([LiteralString("mentor"), LiteralString("name")])?.keys == 1)
    }

    /// The rows' indices that `filter` keeps, by the array or the table, or
    /// the error message.
    static func outcome(_ body: () throws -> [Int]) -> String {
        do { return try body().description } catch { return "error: \(error)" }
    }

    @Test(arguments: formats, [false, true])
    func tableAgreesWithRows(format: String, regular: Bool) throws {
        let filter = try format.contains("%d") ? Filter(format, 1) : Filter(format)
        let rows = regular ? Self.regular : Self.rows
        let table = ValueTable(rows)
        let variables: [String: Value] = ["limit": .double(0.5)]
        let compiled = filter.compiled()
        let expected = Self.outcome {
            try rows.indices.filter { try compiled.evaluate(with: rows[$0], variables: variables) }
        }
        #expect(Self.outcome { try table.indices(where: filter, variables: variables) } == expected, "\(format)")
        if !expected.hasPrefix("error") {
            let hits = try table.filter(filter, variables: variables)
            #expect(try table.count(where: filter, variables: variables) == hits.count)
            #expect(try table.first(where: filter, variables: variables) == hits.first)
            #expect(hits.count < rows.count || format.contains("!=") || format.contains("NOT")
                || format.contains("OR") || format.contains("ALL") || format.contains("NONE") || format.contains("nil"))
        }
    }

    @Test func canonicallyEquivalentKeysAreOneColumn() throws {
        let table = ValueTable(Self.rows)
        #expect(table.columnKeys.filter { $0.unicodeScalars.first == "c" }.count == 1)
        for key in ["caf\u{E9}", "cafe\u{301}"] {
            let filter = try Filter("%K == 2", key)
            #expect(try table.count(where: filter) == Self.rows.count { (try? filter.compiled().evaluate(with: $0)) == true })
            #expect(try table.count(where: filter) > 0)
        }
    }

    /// Keys that few rows have get no column, nor does a table with a row
    /// that is not a dictionary; both still answer as the rows do.
    @Test func sparseKeysAndOtherRows() throws {
        let sparse: [Value] = (0..<100).map { i in .dictionary(["k\(i)": .int(i), "age": .int(i)]) }
        let table = ValueTable(sparse)
        #expect(table.columnKeys == ["age"])
        #expect(try table.count(where: Filter("k7 == 7 OR age < 3")) == 4)

        let mixed: [Value] = Self.rows + [.array([["age": 99]]), .null, .object(ObjectValue(InPlaceReaderTests.members[0]))]
        let other = ValueTable(mixed)
        #expect(other.columnKeys.isEmpty)
        for format in ["ANY age > 90", "age > 90", "ALL tags == 'x'", "name BEGINSWITH 'ab'"] {
            let filter = try Filter(format)
            let compiled = filter.compiled()
            let expected = Self.outcome { try mixed.indices.filter { try compiled.evaluate(with: mixed[$0]) } }
            #expect(Self.outcome { try other.indices(where: filter) } == expected, "\(format)")
        }
        #expect(ValueTable([]).columnKeys.isEmpty)
        #expect(try ValueTable([]).count(where: Filter("age > 1")) == 0)
    }
}
