import Sift

/// `[c]` on PostgreSQL: the evaluator folds a string as Swift's
/// `uppercased().lowercased()` followed by the canonical decomposition,
/// one scalar at a time (no context rule: a final sigma folds as any
/// sigma). PostgreSQL's `lower(upper(…))` maps one character to one
/// (glibc's `towupper`/`towlower`), so it misses the full mappings
/// (`ﬁ` → `fi`, `ß` → `ss`, `ᾳ` → `αι`, `ŉ` → `ʼn`) and the letters newer
/// than the server's Unicode tables (Unicode 16's `Ꟑ`, Garay, Kirat Rai).
///
/// ``scalars`` are the scalars whose fold differed, measured over every
/// scalar (U+0001…U+10FFFF) on PostgreSQL 15 with glibc 2.36 and
/// `LC_CTYPE` `C.UTF-8` (`PostgreSQLCaseFoldTests` measures it again on the
/// server it runs on). Before `lower(upper(…))` each of them is replaced
/// by the evaluator's own fold of it, which PostgreSQL's `lower(upper(…))`
/// and `normalize` then keep: the fold is exact for every string, since
/// both sides map scalar by scalar and the decomposition of a whole string
/// is that of its parts' decompositions. The replacements run only on a
/// string that has one of them (one regular-expression test otherwise),
/// so ordinary text folds as fast as with `lower(upper(…))` alone
/// (200,000 rows: 1.1 s either way; the replacements on every row took
/// 10 s).
package enum PostgreSQLCaseFold {
    /// The scalars whose PostgreSQL `lower(upper(…))` differs from the
    /// evaluator's fold, in ascending order.
    static let scalars: [Unicode.Scalar] = {
        let ranges: [ClosedRange<UInt32>] = [
            0xDF...0xDF, 0x130...0x130, 0x149...0x149, 0x587...0x587, 0x1C89...0x1C89, 0x1E9A...0x1E9A,
            0x1E9E...0x1E9E, 0x1F80...0x1FAF, 0x1FB2...0x1FB4, 0x1FB7...0x1FB7, 0x1FBC...0x1FBC,
            0x1FC2...0x1FC4, 0x1FC7...0x1FC7, 0x1FCC...0x1FCC, 0x1FF2...0x1FF4, 0x1FF7...0x1FF7,
            0x1FFC...0x1FFC, 0xA7CB...0xA7CC, 0xA7CE...0xA7CE, 0xA7D2...0xA7D2, 0xA7D4...0xA7D4,
            0xA7DA...0xA7DA, 0xA7DC...0xA7DC, 0xFB00...0xFB06, 0xFB13...0xFB17, 0x10D50...0x10D65,
            0x16EA0...0x16EB8,
        ]
        return ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
    }()

    /// `column` case-folded as the evaluator folds it, before the
    /// canonical decomposition (which the caller applies).
    static func fold(_ column: SQLFragment) -> SQLFragment {
        let plain = SQLFragment.function("lower", [.function("upper", [column])])
        return .sequence([
            .sql("CASE WHEN "), .binary(column, "~", .literal(characterClass)), .sql(" THEN "),
            .function("lower", [.function("upper", [replaced(column)])]), .sql(" ELSE "), plain, .sql(" END"),
        ])
    }

    /// `[…]` of ``scalars``: none is special in a bracket expression.
    static let characterClass = "[" + string(scalars) + "]"

    /// Each of ``scalars`` replaced by the evaluator's fold of it: those
    /// folding to several scalars by `replace`, in ascending order (ß → ss
    /// before ẞ → ß), then those folding to one by one `translate`. No fold
    /// has a scalar of the list, so no replacement is replaced again.
    private static func replaced(_ column: SQLFragment) -> SQLFragment {
        var s = column
        var from = "", to = ""
        for u in scalars {
            let folded = StringOperations.folded(String(u), [.caseInsensitive])
            if folded.unicodeScalars.count == 1 {
                from.unicodeScalars.append(u)
                to += folded
            } else {
                s = .function("replace", [s, .literal(String(u)), .literal(folded)])
            }
        }
        return .function("translate", [s, .literal(from), .literal(to)])
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }

    // MARK: - The server's check

    /// The scalars whose case Swift maps or folds, with the evaluator's
    /// `[c]` fold of each: those a server's case tables could fold
    /// otherwise (the others fold to themselves on both sides).
    private static let cased: (scalars: [SQLValue], folds: [SQLValue]) = {
        var scalars: [SQLValue] = [], folds: [SQLValue] = []
        for v in UInt32(1)...0x10FFFF {
            guard let u = Unicode.Scalar(v), u.properties.changesWhenCaseMapped || u.properties.changesWhenCaseFolded else {
                continue
            }
            scalars.append(.integer(Int64(v)))
            folds.append(.text(StringOperations.folded(String(u), [.caseInsensitive])))
        }
        return (scalars, folds)
    }()

    /// A statement that returns the scalars (as integers) that this
    /// dialect's `[c]` SQL folds otherwise than the evaluator on the
    /// server it runs on: none on a server whose case tables are those
    /// ``scalars`` was measured with. One round trip, about 2,800 scalars.
    package static func check() -> BoundStatement {
        let folded = SQLGenerationContext.statement(
            PostgreSQLDialect().fold(.sql("chr(t.n)"), [.caseInsensitive]), dialect: .postgreSQL
        ).sql
        return BoundStatement(
            sql: "SELECT t.n FROM unnest($1::int[], $2::text[]) AS t(n, f) WHERE \(folded) IS DISTINCT FROM t.f ORDER BY t.n",
            bindings: [.array(cased.scalars), .array(cased.folds)])
    }

    /// Why `[c]` has no exact form on a server whose `check()` returned
    /// `differing`, or nil when it returned none.
    package static func refusal(differing: [Int64], collation: String) -> String? {
        guard !differing.isEmpty else { return nil }
        let shown = differing.prefix(8).map { "U+" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        return "this database's case tables (LC_CTYPE \(collation)) fold \(differing.count) scalars otherwise than Swift "
            + "(\(shown)\(differing.count > 8 ? " …" : "")); use a database whose LC_CTYPE folds Unicode, such as C.UTF-8"
    }
}
