import CPCRE2

/// A MATCHES pattern compiled with PCRE2 to behave like ICU's `matches()`:
/// the whole subject must match (anchored at both ends, with backtracking
/// into alternatives), Unicode-aware classes and case folding, and the
/// limits of ``RegexLimits`` so that a pathological pattern is an error,
/// not a hang.
final class CompiledRegex: @unchecked Sendable {
    // The compiled code is read-only once built: PCRE2 allows it to be shared
    // between threads; match data is made per match.
    private let code: OpaquePointer
    private let context: OpaquePointer?

    init(_ pattern: String, caseInsensitive: Bool, limits: RegexLimits) throws(Failure) {
        let length = pattern.utf8.count
        guard length <= limits.maximumPatternLength else {
            throw Failure(
                .regexLimit,
                "the regular expression is \(length) bytes long; the limit is \(limits.maximumPatternLength) (RegexLimits.maximumPatternLength)")
        }
        try CompiledRegex.checkICUSyntax(pattern)
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_NEVER_BACKSLASH_C)
        if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                pcre2_compile_8(bytes.baseAddress, bytes.count - 1, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            var message = [UInt8](repeating: 0, count: 256)
            let n = pcre2_get_error_message_8(errorCode, &message, message.count)
            let text = n > 0 ? String(decoding: message[0..<Int(n)], as: UTF8.self) : "error \(errorCode)"
            // PCRE2's own bounds: a compiled pattern of 64 KiB (as PCRE2 is
            // usually built) and 250 nested parentheses.
            if errorCode == PCRE2_ERROR_PATTERN_TOO_LARGE || errorCode == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP {
                throw Failure(.regexLimit, "the regular expression is too large to compile: \(text) at offset \(errorOffset)")
            }
            throw Failure(.invalidRegex, "invalid regular expression \"\(pattern)\": \(text) at offset \(errorOffset)")
        }
        code = compiled
        context = pcre2_match_context_create_8(nil)
        if let context {
            pcre2_set_match_limit_8(context, Self.clamped(limits.matchLimit))
            pcre2_set_depth_limit_8(context, Self.clamped(limits.depthLimit))
            pcre2_set_heap_limit_8(context, Self.clamped(limits.heapLimit))
        }
    }

    private static func clamped(_ n: Int) -> UInt32 { UInt32(clamping: max(0, n)) }

    deinit {
        pcre2_code_free_8(code)
        if let context { pcre2_match_context_free_8(context) }
    }

    func matches(_ subject: String) throws(Failure) -> Bool {
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else {
            throw Failure(.regexLimit, "out of memory for a regular expression match")
        }
        defer { pcre2_match_data_free_8(data) }
        var subject = subject
        let rc = subject.withUTF8 { bytes in
            pcre2_match_8(code, bytes.baseAddress, bytes.count, 0, 0, data, context)
        }
        if rc >= 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH { return false }
        switch rc {
        case PCRE2_ERROR_MATCHLIMIT:
            throw Failure(
                .regexLimit, "the regular expression went over its limit of backtracking steps (RegexLimits.matchLimit)")
        case PCRE2_ERROR_DEPTHLIMIT:
            throw Failure(
                .regexLimit, "the regular expression went over its limit of backtracking depth (RegexLimits.depthLimit)")
        case PCRE2_ERROR_HEAPLIMIT:
            throw Failure(.regexLimit, "the regular expression went over its memory limit (RegexLimits.heapLimit)")
        default:
            break
        }
        throw Failure(.invalidRegex, "regular expression matching failed (PCRE2 error \(rc))")
    }

    /// ICU rejects some patterns that PCRE2 reads as literal text; they are
    /// errors here too, so that a pattern means the same on every platform.
    /// Today: a `{` outside a class that does not start an interval
    /// `{n}`, `{n,}` or `{n,m}` (ICU's U_REGEX_BAD_INTERVAL).
    static func checkICUSyntax(_ pattern: String) throws(Failure) {
        let b = Array(pattern.utf8)
        var i = 0
        var inClass = false
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                // \p{…}, \x{…}, \N{…}: the braces belong to the escape.
                if i < b.count, b[i] == UInt8(ascii: "{"), "pPxNkgu".utf8.contains(b[i - 1]) {
                    while i < b.count, b[i] != UInt8(ascii: "}") { i += 1 }
                    i += 1
                }
                continue
            }
            if inClass {
                if c == UInt8(ascii: "]") { inClass = false }
            } else if c == UInt8(ascii: "[") {
                inClass = true
                if i + 1 < b.count, b[i + 1] == UInt8(ascii: "]") { i += 1 }
            } else if c == UInt8(ascii: "{") {
                var j = i + 1
                let digitsStart = j
                while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { j += 1 }
                var ok = j > digitsStart
                if ok, j < b.count, b[j] == UInt8(ascii: ",") {
                    j += 1
                    while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { j += 1 }
                }
                ok = ok && j < b.count && b[j] == UInt8(ascii: "}")
                if !ok {
                    throw Failure(
                        .invalidRegex,
                        "invalid regular expression \"\(pattern)\": bad interval at offset \(i) (write \\{ for a literal brace)")
                }
                i = j
            }
            i += 1
        }
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
