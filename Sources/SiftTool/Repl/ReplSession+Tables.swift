import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// The REPL's tables of rows.
extension ReplSession {
    // MARK: - Tables

    /// The rows at `indices` (0-based positions in the collection) as a
    /// table: `#` (the row number `:why` takes), then as many columns as fit.
    func table(_ indices: [Int]) -> [String] {
        table(indices.map { collection.row($0) }, numbers: indices.map { $0 + 1 })
    }

    /// `rows` as a table, each numbered in the `#` column.
    func table(_ rows: [Value], numbers: [Int]) -> [String] {
        let maxCell = 32
        var header = ["#"]
        var cells: [[String]] = numbers.map { [String($0)] }
        var widths = [max(1, cells.map { $0[0].count }.max() ?? 1)]
        var numeric = [true]
        var used = widths[0]
        for column in collection.columns {
            let values = rows.map { Self.member($0, column) }
            let texts = values.map { RowFormatting.cell($0, width: maxCell) }
            let name = TerminalText.visible(column)
            let w = max(name.count, texts.map(\.count).max() ?? 0)
            if used + 2 + w > width { continue }
            used += 2 + w
            header.append(name)
            widths.append(w)
            numeric.append(values.allSatisfy { $0.isNull || $0.isNumber } && values.contains { $0.isNumber })
            for i in cells.indices { cells[i].append(texts[i]) }
        }
        func line(_ items: [String]) -> String { RowFormatting.line(items, widths: widths, rightAlign: numeric) }
        var lines = [style.bold(line(header))]
        lines.append(style.dim(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")))
        for row in cells { lines.append(line(row)) }
        return lines
    }

    static func member(_ row: Value, _ key: String) -> Value {
        if case .dictionary(let d) = row { return d[key] ?? .null }
        return .null
    }
}
