import Foundation
import GRDB
import Sift
import SiftCatalog
import SiftSQL
import SiftSQLite
import Testing

/// SiftCatalog's rule for reading a stored value back as its attribute's
/// type (`Value(stored:_:)`), through SiftSQLite's `Value(_:_:)` of a
/// `DatabaseValue`.
struct StoredValueTests {
    @Test func testStoredValuesReadBack() throws {
        let u = UUID()
        #expect(Value(withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue, .uuid(.bytes)) == .uuid(u))
        #expect(Value(u.uuidString.databaseValue, .uuid(.text)) == .uuid(u))
        #expect(Value(Data([1, 2, 3]).databaseValue, .uuid(.bytes)) == .data(Data([1, 2, 3])))
        guard case .decimal(let d) = Value(19.99.databaseValue, .decimal) else { Issue.record(); return }
        #expect(d.description == "19.99")
        guard case .decimal(let s) = Value((0.1 + 0.2).databaseValue, .decimal) else { Issue.record(); return }
        #expect(s.description == "0.30000000000000004")
        #expect(Value(3.databaseValue, .decimal) == .decimal(3))
        #expect(Value(1.databaseValue, .boolean) == .bool(true))
    }

    /// The rule itself, for what SQLite never stores (Booleans, arrays)
    /// and each date encoding.
    @Test func testStoredValuesByType() {
        let day = Date(timeIntervalSince1970: 86_400)
        #expect(Value(stored: .null, .integer) == .null)
        #expect(Value(stored: .integer(0), .boolean) == .bool(false))
        #expect(Value(stored: .integer(2), .double) == .double(2))
        #expect(Value(stored: .integer(86_400), .date(.unixSeconds)) == .date(day))
        #expect(Value(stored: .real(0), .date(.referenceSeconds)) == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(Value(stored: .real(3), .integer) == .int(3))
        #expect(Value(stored: .real(3.5), .integer) == .double(3.5))
        #expect(Value(stored: .real(1e19), .integer) == .double(1e19), "beyond an Int")
        #expect(Value(stored: .real(2.5), .date(.iso8601)) == .double(2.5), "a number where text is expected")
        #expect(Value(stored: .text("1970-01-02T00:00:00.000Z"), .date(.iso8601)) == .date(day))
        #expect(Value(stored: .text("not a date"), .date(.iso8601)) == .string("not a date"))
        #expect(Value(stored: .text("x"), .uuid(.text)) == .string("x"))
        #expect(Value(stored: .boolean(true), .integer) == .bool(true))
        #expect(Value(stored: .array([.integer(1), .null]), .boolean) == .array([.bool(true), .null]))
    }
}
