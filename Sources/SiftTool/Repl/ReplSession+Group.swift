import Foundation
import Sift
import SiftSQL

/// `:group`: predicates answer with groups, as `sift filter --group-by`.
struct ReplGrouping {
    /// The grouping as typed after `:group`.
    var text: String
    var parts: GroupingText
    /// The keys of each result, in the order shown.
    var columns: [String] { parts.columns }

    /// `request` grouped this way.
    func applied(to request: FetchSpecification) -> FetchSpecification { parts.applied(to: request) }
}

extension ReplSession {
    // MARK: - :group

    /// `:group KEYS [SELECT items] [HAVING predicate]`, `:group none`, or
    /// `:group` to show the grouping.
    func setGrouping(_ argument: String) -> Reply {
        if argument.isEmpty {
            return Reply(output: grouping.map { "grouped: " + TerminalText.visible($0.text) } ?? "not grouped")
        }
        if argument == "none" {
            grouping = nil
            return Reply(output: "not grouped: predicates list the matching rows")
        }
        let parts: (keys: String, select: String?, having: String?)
        do {
            parts = try Self.clauses(argument)
        } catch {
            return error.reply(style)
        }
        var g: ReplGrouping?
        do {
            let grouping = ReplGrouping(
                text: argument,
                parts: try GroupingText(
                    groupBy: parts.keys.isEmpty ? nil : parts.keys, select: parts.select, having: parts.having))
            g = grouping
            var request = grouping.applied(to: FetchSpecification())
            guard request.isGrouped else {
                return failure("usage: :group KEYS [SELECT key, name = count:(SELF), …] [HAVING predicate], or :group none")
            }
            request.sort = sort
            _ = try GroupedFetchAccumulator(request)
        } catch let e as EvaluationError {
            return failure(g?.parts.locate(e) ?? e)
        } catch {
            return failure(error)
        }
        grouping = g
        return Reply(output: "grouped: " + TerminalText.visible(argument) + "; predicates now give one row per group")
    }

    /// The text before `SELECT`, after it, and after `HAVING` (words in
    /// any case, outside quotes and brackets).
    static func clauses(_ text: String) throws(ReplError) -> (keys: String, select: String?, having: String?) {
        let bytes = Array(text.utf8)
        var marks: [(word: String, start: Int, end: Int)] = []
        var (depth, i) = (0, 0)
        var quote: UInt8? = nil
        func isWordByte(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == UInt8(ascii: "\\") { i += 1 } else if b == q { quote = nil }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
            case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default:
                if depth == 0, isWordByte(b), i == 0 || !isWordByte(bytes[i - 1]) {
                    var j = i
                    while j < bytes.count, isWordByte(bytes[j]) { j += 1 }
                    let word = String(decoding: bytes[i..<j], as: UTF8.self).uppercased()
                    // Part of a key path or name (`a.select`, `select_1`) is no clause.
                    func joins(_ b: UInt8) -> Bool { b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || (b >= 0x30 && b <= 0x39) }
                    let inName = (j < bytes.count && joins(bytes[j])) || (i > 0 && joins(bytes[i - 1]))
                    if (word == "SELECT" || word == "HAVING") && !inName {
                        marks.append((word, i, j))
                    }
                    i = j
                    continue
                }
            }
            i += 1
        }
        func slice(_ a: Int, _ b: Int) -> String {
            String(decoding: bytes[a..<b], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        let keys = slice(0, marks.first?.start ?? bytes.count)
        var select: String?
        var having: String?
        for (n, m) in marks.enumerated() {
            let end = n + 1 < marks.count ? marks[n + 1].start : bytes.count
            if m.word == "SELECT" {
                guard select == nil, having == nil else { throw ReplError("one SELECT, before HAVING: :group KEYS SELECT … HAVING …") }
                select = slice(m.end, end)
            } else {
                guard having == nil else { throw ReplError("one HAVING: join its tests with AND") }
                having = slice(m.end, end)
            }
        }
        return (keys, select, having)
    }

    /// The groups of the rows that match `filter`, in memory or on the server.
    func runGrouped(_ filter: Filter, _ g: ReplGrouping) -> Reply {
        var request = g.applied(to: FetchSpecification(entity: collection.name, filter: filter, sort: sort, limit: limit))
        let clock = ContinuousClock()
        let start = clock.now
        let results: [Value]
        do {
            if let server = dataset.server {
                let query = try request.sql(in: server.schema, dialect: .postgreSQL)
                results = try server.rows(query).map { Value.dictionary(query.object($0)) }
            } else {
                let matched = try Interruption.catching { try self.matches(filter, stop: $0) }
                request.filter = nil
                request.entity = nil
                // In input order, as the objects come to a grouped fetch.
                results = try request.execute(on: matched.sorted().map { collection.row($0) })
            }
        } catch let e as EvaluationError {
            return failure(g.parts.locate(e))
        } catch {
            return failure(error)
        }
        let elapsed = clock.now - start
        var lines: [String] = []
        let rows = GroupingOptions.rows(results, columns: g.columns)
        if !rows.isEmpty { lines += RowFormatting.table(g.columns, rows).dropLast() }
        lines.append(style.dim(
            (results.count == 1 ? "1 group" : "\(results.count) groups") + " (\(Self.duration(elapsed))"
                + (dataset.server == nil ? ")" : ", on the server)")))
        return Reply(output: lines.joined(separator: "\n"))
    }
}
