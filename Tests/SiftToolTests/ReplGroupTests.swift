import Foundation
import Sift
import Testing

@testable import SiftTool

/// `:group` in the REPL: predicates then answer with groups, counted here
/// from the sample's rows.
struct ReplGroupTests {
    @Test func groupSetsAGroupingForPredicates() throws {
        let s = try ReplSessionTests.session()
        let set = s.handle(":group language SELECT language, n = count:(SELF) HAVING $n > 1")
        #expect(!set.isError, "\(set.output)")
        let reply = s.handle("year > 1900")
        #expect(!reply.isError, "\(reply.output)")
        // Expected: the languages of the books after 1900 that have two or more.
        var counts: [String: Int] = [:]
        for row in s.collection.rows {
            guard case .dictionary(let d) = row, case .int(let year)? = d["year"], year > 1900 else { continue }
            if case .string(let language)? = d["language"] { counts[language, default: 0] += 1 }
        }
        let expected = counts.filter { $0.value > 1 }
        #expect(!expected.isEmpty)
        let lines = reply.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("language") == true && lines.first?.hasSuffix("n") == true, "\(reply.output)")
        for (language, n) in expected {
            #expect(lines.contains { $0.hasPrefix(language + " ") && $0.hasSuffix(" \(n)") }, "\(language) \(n): \(reply.output)")
        }
        #expect(lines.last?.hasPrefix(expected.count == 1 ? "1 group (" : "\(expected.count) groups (") == true)
        #expect(s.handle(":group").output.hasPrefix("grouped: language SELECT"))
        // Mistakes, with a caret in what was typed.
        let notGrouped = s.handle(":group language SELECT language, title")
        #expect(notGrouped.isError && notGrouped.output.contains("title is fetched but not grouped"))
        #expect(notGrouped.output.contains(" | language, title\n |           ^~~~~"), "\(notGrouped.output)")
        #expect(s.handle(":group language SELECT n = count:(SELF) HAVING $m > 1").output.contains("$m names no expression"))
        #expect(s.handle(":group language HAVING $n > 1 HAVING $n < 3").isError)
        // :sql shows the grouped statement and runs it against memory.
        let sql = s.handle(":sql year > 1900")
        #expect(sql.output.contains("GROUP BY"), "\(sql.output)")
        #expect(sql.output.contains("the same as in memory"), "\(sql.output)")
        // The grouping set before the mistakes still holds; none ends it.
        #expect(s.handle(":group").output.hasPrefix("grouped: language SELECT"))
        s.handle(":group none").expectOK()
        #expect(s.handle("year > 1900").output.contains(" match"))
    }

    @Test func clausesAreFoundOutsideQuotesAndKeys() throws {
        let parts = try ReplSession.clauses("a.select, b SELECT x = max:(title) HAVING x != 'select HAVING'")
        #expect(parts.keys == "a.select, b")
        #expect(parts.select == "x = max:(title)")
        #expect(parts.having == "x != 'select HAVING'")
    }
}
