import Foundation

/// The string semantics of the evaluator, for the SQL lowering and the
/// functions it registers on a database: one implementation, so that a
/// predicate answers the same in memory and in SQL.
package enum StringOperations {
    /// Where a search looks for its needle (the one ``SearchKind``).
    package typealias SearchKind = Sift.SearchKind

    /// The form in which strings are compared under `options`: canonical
    /// decomposition, case-folded for `[c]`, without combining marks for
    /// `[d]`, untouched for `[n]`. Two strings are equal under the options
    /// exactly when their folded forms are equal.
    package static func folded(_ s: String, _ options: ComparisonOptions) -> String {
        var out = String.UnicodeScalarView()
        for v in StringSemantics.key(s, options) {
            if let u = Unicode.Scalar(v) { out.append(u) }
        }
        return String(out)
    }

    /// `compare:options:` as the evaluator orders strings: -1, 0 or 1.
    package static func compare(_ a: String, _ b: String, _ options: ComparisonOptions) -> Int {
        switch StringSemantics.compare(a, b, options) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

    /// Whether `haystack` has `needle` where `kind` says.
    package static func search(_ haystack: String, _ needle: String, _ kind: SearchKind, _ options: ComparisonOptions)
        -> Bool
    {
        StringSemantics.search(haystack, needle, kind, options)
    }

    /// Whether `s` matches the wildcard pattern `pattern` as a whole
    /// (``LikePattern``).
    package static func like(_ s: String, _ pattern: String, _ options: ComparisonOptions) -> Bool {
        LikePattern.matches(s, pattern, options)
    }
}

/// A MATCHES pattern compiled as the evaluator compiles it (PCRE2, whole
/// string, `[c]` caseless, `[d]` on diacritic-folded text): the evaluator's
/// MATCHES and the SQLite function `sift_matches` both use it.
package final class MatchesPattern: @unchecked Sendable {
    private let regex: CompiledRegex
    private let foldDiacritics: Bool

    init(_ pattern: String, _ options: ComparisonOptions, limits: RegexLimits) throws(Failure) {
        let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
        foldDiacritics = options.contains(.diacriticInsensitive) && !options.contains(.normalized)
        regex = try CompiledRegex(
            foldDiacritics ? StringOperations.folded(pattern, [.diacriticInsensitive]) : pattern,
            caseInsensitive: caseless, limits: limits)
    }

    func test(_ subject: String) throws(Failure) -> Bool {
        try regex.matches(foldDiacritics ? StringOperations.folded(subject, [.diacriticInsensitive]) : subject)
    }

    package convenience init(_ pattern: String, options: ComparisonOptions, limits: RegexLimits = .default)
        throws(EvaluationError)
    {
        do throws(Failure) {
            try self.init(pattern, options, limits: limits)
        } catch {
            throw EvaluationError(error.code, error.message, range: SourceRange(0, pattern.utf8.count), source: pattern)
        }
    }

    /// Whether the whole of `subject` matches.
    package func matches(_ subject: String) throws(EvaluationError) -> Bool {
        do throws(Failure) {
            return try test(subject)
        } catch {
            throw EvaluationError(error.code, error.message, range: SourceRange(0, subject.utf8.count), source: subject)
        }
    }
}
