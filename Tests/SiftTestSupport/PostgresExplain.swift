// SIFT_POSTGRES: see PostgresServer.swift.
#if SIFT_POSTGRES
import Foundation
import PostgresNIO
import SiftSQL

extension PostgresServer {
    /// `EXPLAIN (<options>, FORMAT JSON)` of `statement`, with its values
    /// bound, as the plan's JSON object (the top node, its `Plans` below).
    package static func explain(_ statement: BoundStatement, options: String = "", on db: PostgresConnection) async throws
        -> [String: Any]
    {
        var binds = PostgresBindings()
        for value in statement.bindings {
            switch value {
            case .integer(let i): binds.append(i)
            case .real(let d): binds.append(d)
            case .text(let s): binds.append(s)
            case .boolean(let b): binds.append(b)
            case .array(let values) where values.allSatisfy({ if case .integer = $0 { true } else { false } }):
                binds.append(values.map { v -> Int64 in if case .integer(let i) = v { i } else { 0 } })
            case .array(let values) where values.allSatisfy({ if case .text = $0 { true } else { false } }):
                binds.append(values.map { v -> String in if case .text(let t) = v { t } else { "" } })
            default: throw Missing(description: "a value the explained statements do not bind: \(value)")
            }
        }
        let prefix = options.isEmpty ? "EXPLAIN (FORMAT JSON) " : "EXPLAIN (\(options), FORMAT JSON) "
        let rows = try await db.query(PostgresQuery(unsafeSQL: prefix + statement.sql, binds: binds), logger: Logger(label: "tests"))
        var text = ""
        for try await row in rows {
            // A json column arrives as its text.
            for cell in row { text += cell.bytes.map { String(buffer: $0) } ?? "" }
        }
        guard let plans = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]],
            let plan = plans.first?["Plan"] as? [String: Any]
        else { throw Missing(description: "EXPLAIN returned no plan: \(text)") }
        return plan
    }

    /// Every node of `plan`, the top one first, at any depth.
    package static func nodes(of plan: [String: Any]) -> [[String: Any]] {
        [plan] + (plan["Plans"] as? [[String: Any]] ?? []).flatMap(nodes)
    }
}
#endif
