import Foundation
import Sift
import SiftSQL

extension SQLQuery {
    /// A fetched row's stored values read back: each as its column's type
    /// (``Value/init(stored:_:)``), and a NULL as the value it stands for,
    /// where its column says (``SQLQuery/ResultColumn/whenNull``). Every
    /// reader of a lowered statement's rows reads them here.
    package func values(_ row: some Sequence<SQLValue>) -> [Value] {
        zip(columns, row).map { column, stored in
            if case .null = stored, let stood = column.whenNull { return stood }
            return Value(stored: stored, column.type)
        }
    }
}

extension Value {
    /// A stored value read back as the attribute's type: Booleans as
    /// `.bool` (from 0 and 1 too), decimals as the decimal their double
    /// stands for (its shortest form, `19.99`), UUIDs as `.uuid` (from 16
    /// bytes or from their text), dates by their encoding. A value the type
    /// cannot hold (a BLOB of another length in a UUID column) is read as
    /// it is stored.
    package init(stored: SQLValue, _ type: AttributeType) {
        switch stored {
        case .null:
            self = .null
        case .integer(let i):
            switch type {
            case .boolean: self = .bool(i != 0)
            case .double: self = .double(Double(i))
            case .decimal: self = .decimal(Decimal(i))
            case .date(let e): self = Value.date(Double(i), e)
            default: self = .int(Int(i))
            }
        case .real(let d):
            switch type {
            case .integer where d == d.rounded() && abs(d) < 9e18: self = .int(Int(d))
            case .date(let e): self = Value.date(d, e)
            case .decimal: self = Value.shortestDecimal(of: d).map(Value.decimal) ?? .double(d)
            default: self = .double(d)
            }
        case .text(let s):
            switch type {
            case .uuid: self = UUID(uuidString: s).map(Value.uuid) ?? .string(s)
            case .date(.iso8601):
                self = (try? Date(s, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))).map(Value.date)
                    ?? .string(s)
            default: self = .string(s)
            }
        case .boolean(let b):
            self = .bool(b)
        case .array(let items):
            self = .array(items.map { Value(stored: $0, type) })
        case .blob(let data):
            if case .uuid = type, data.count == 16 {
                self = .uuid(UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
            } else {
                self = .data(data)
            }
        }
    }

    private static func date(_ seconds: Double, _ e: DateEncoding) -> Value {
        switch e {
        case .referenceSeconds: return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .unixSeconds: return .date(Date(timeIntervalSince1970: seconds))
        case .iso8601: return .double(seconds)
        }
    }
}
