/// Splits a format string (as UTF-8 bytes) into tokens with their ranges.
///
/// Works on bytes, never on `Character`s: every token of the language is
/// ASCII except the contents of quoted strings, which are copied through.
struct Lexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: String

    init(bytes: UnsafeBufferPointer<UInt8>, source: String) {
        self.bytes = bytes
        self.source = source
    }

    /// All tokens, ending with `.end`.
    func tokenize() throws(ParseError) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 3 + 2)
        var i = 0
        let n = bytes.count
        while true {
            while i < n, Lexer.isSpace(bytes[i]) { i += 1 }
            if i >= n {
                tokens.append(Token(kind: .end, flag: 0, start: Int32(n), end: Int32(n)))
                return tokens
            }
            let token = try next(at: i)
            tokens.append(token)
            i = Int(token.end)
        }
    }

    private func error(_ message: String, _ start: Int, _ end: Int) -> ParseError {
        ParseError(.syntax, message, range: SourceRange(start, end), source: source)
    }

    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    private func token(_ kind: TokenKind, _ start: Int, _ end: Int, flag: UInt8 = 0) -> Token {
        Token(kind: kind, flag: flag, start: Int32(start), end: Int32(end))
    }

    // swiftlint:disable:next cyclomatic_complexity
    private func next(at i: Int) throws(ParseError) -> Token {
        let b = bytes[i]
        if Lexer.isIdentifierStart(b) { return try word(at: i) }
        if Lexer.isDigit(b) { return try number(at: i) }
        switch b {
        case UInt8(ascii: "'"), UInt8(ascii: "\""): return try string(at: i)
        case UInt8(ascii: "("): return token(.leftParen, i, i + 1)
        case UInt8(ascii: ")"): return token(.rightParen, i, i + 1)
        case UInt8(ascii: "["): return token(.leftBracket, i, i + 1)
        case UInt8(ascii: "]"): return token(.rightBracket, i, i + 1)
        case UInt8(ascii: "{"): return token(.leftBrace, i, i + 1)
        case UInt8(ascii: "}"): return token(.rightBrace, i, i + 1)
        case UInt8(ascii: ","): return token(.comma, i, i + 1)
        case UInt8(ascii: "."): return token(.dot, i, i + 1)
        case UInt8(ascii: ":"):
            return byte(i + 1) == UInt8(ascii: "=") ? token(.colonEquals, i, i + 2) : token(.colon, i, i + 1)
        case UInt8(ascii: "="):
            switch byte(i + 1) {
            case UInt8(ascii: "="): return token(.equal, i, i + 2)
            case UInt8(ascii: "<"): return token(.lessEqual, i, i + 2)
            case UInt8(ascii: ">"): return token(.greaterEqual, i, i + 2)
            default: return token(.equal, i, i + 1)
            }
        case UInt8(ascii: "!"):
            return byte(i + 1) == UInt8(ascii: "=") ? token(.notEqual, i, i + 2) : token(.not, i, i + 1)
        case UInt8(ascii: "<"):
            switch byte(i + 1) {
            case UInt8(ascii: "="): return token(.lessEqual, i, i + 2)
            case UInt8(ascii: ">"): return token(.notEqual, i, i + 2)
            case UInt8(ascii: "<"): return token(.shiftLeft, i, i + 2)
            default: return token(.less, i, i + 1)
            }
        case UInt8(ascii: ">"):
            switch byte(i + 1) {
            case UInt8(ascii: "="): return token(.greaterEqual, i, i + 2)
            case UInt8(ascii: ">"): return token(.shiftRight, i, i + 2)
            default: return token(.greater, i, i + 1)
            }
        case UInt8(ascii: "&"):
            return byte(i + 1) == UInt8(ascii: "&") ? token(.and, i, i + 2) : token(.ampersand, i, i + 1)
        case UInt8(ascii: "|"):
            return byte(i + 1) == UInt8(ascii: "|") ? token(.or, i, i + 2) : token(.pipe, i, i + 1)
        case UInt8(ascii: "*"):
            return byte(i + 1) == UInt8(ascii: "*") ? token(.starStar, i, i + 2) : token(.star, i, i + 1)
        case UInt8(ascii: "+"): return token(.plus, i, i + 1)
        case UInt8(ascii: "-"): return token(.minus, i, i + 1)
        case UInt8(ascii: "/"): return token(.slash, i, i + 1)
        case UInt8(ascii: "^"): return token(.caret, i, i + 1)
        case UInt8(ascii: "~"): return token(.tilde, i, i + 1)
        case UInt8(ascii: "#"): return try escapedWord(at: i)
        case UInt8(ascii: "@"): return try collectionOperator(at: i)
        case UInt8(ascii: "$"): return try variable(at: i)
        case UInt8(ascii: "%"): return try formatSpecifier(at: i)
        case UInt8(ascii: "?"):
            let op = ComparisonOperator(family: .pattern(.wildcard))?.symbol ?? ""
            throw error("'?' is not a token; write the wildcard inside a quoted \(op) pattern", i, i + 1)
        default:
            let end = scalarEnd(at: i)
            if b >= 0x80 {
                throw error(
                    "unexpected character '\(text(i, end))'; keys with non-ASCII characters must be passed with %K",
                    i, end)
            }
            throw error("unexpected character '\(text(i, end))'", i, end)
        }
    }

    // MARK: - Words

    private func wordEnd(from i: Int) -> Int {
        var j = i
        while j < bytes.count, Lexer.isIdentifierPart(bytes[j]) { j += 1 }
        return j
    }

    private func word(at i: Int) throws(ParseError) -> Token {
        let end = wordEnd(from: i)
        if end < bytes.count, bytes[end] >= 0x80 {
            let stop = nonASCIIWordEnd(from: end)
            throw error(
                "'\(text(i, stop))' is not a valid key: bare keys are ASCII; pass other keys with %K", i, stop)
        }
        if let (kind, flag) = Lexer.keyword(bytes, i, end) {
            if kind == .kwReserved {
                throw error("'\(text(i, end))' is a reserved word; write #\(text(i, end)) to use it as a key", i, end)
            }
            return token(kind, i, end, flag: flag)
        }
        // Operator words with hyphens (UTI-CONFORMS-TO, UTI-EQUALS) are
        // read whole where a word is followed by the rest of one.
        if byte(end) == UInt8(ascii: "-") {
            for (word, kind) in Lexer.hyphenatedWords where Lexer.equalsUppercased(bytes, i, end, word.first) {
                let restEnd = end + 1 + word.rest.utf8.count
                if restEnd <= bytes.count, Lexer.equalsUppercased(bytes, end + 1, restEnd, word.rest),
                    restEnd == bytes.count || !Lexer.isIdentifierPart(bytes[restEnd])
                {
                    return token(kind.kind, i, restEnd, flag: kind.flag)
                }
            }
        }
        return token(.identifier, i, end)
    }

    /// The operator words that contain a hyphen, split at the first one:
    /// `("UTI", "CONFORMS-TO")`.
    private static let hyphenatedWords: [((first: String, rest: String), (kind: TokenKind, flag: UInt8))] =
        ComparisonOperator.Builtin.allCases.compactMap { builtin in
            let parts = builtin.rawValue.split(separator: "-", maxSplits: 1)
            guard builtin.isWord, parts.count == 2 else { return nil }
            return ((String(parts[0]), String(parts[1])), builtin.token)
        }

    private func nonASCIIWordEnd(from i: Int) -> Int {
        var j = i
        while j < bytes.count, bytes[j] >= 0x80 || Lexer.isIdentifierPart(bytes[j]) { j += 1 }
        return j
    }

    private func escapedWord(at i: Int) throws(ParseError) -> Token {
        guard Lexer.isIdentifierStart(byte(i + 1)) else {
            throw error("expected a word after '#'", i, i + 1)
        }
        let end = wordEnd(from: i + 1)
        return token(.identifier, i, end, flag: 1)
    }

    private func collectionOperator(at i: Int) throws(ParseError) -> Token {
        guard Lexer.isIdentifierStart(byte(i + 1)) else {
            throw error("expected a collection operator after '@' (such as @count or @sum)", i, i + 1)
        }
        let end = wordEnd(from: i + 1)
        let name = text(i, end)
        guard CollectionOperator(name: name) != nil else {
            throw error(
                "unknown collection operator '\(name)'; expected one of "
                    + CollectionOperator.allCases.map(\.name).joined(separator: ", "), i, end)
        }
        return token(.collectionOperator, i, end)
    }

    private func variable(at i: Int) throws(ParseError) -> Token {
        let next = byte(i + 1)
        if Lexer.isIdentifierStart(next) {
            return token(.variable, i, wordEnd(from: i + 1))
        }
        if next == UInt8(ascii: "#"), Lexer.isIdentifierStart(byte(i + 2)) {
            return token(.variable, i, wordEnd(from: i + 2), flag: 1)
        }
        let end = Lexer.isIdentifierPart(next) ? wordEnd(from: i + 1) : i + 1
        throw error("expected a variable name after '$' (a letter or '_' first)", i, end)
    }

    // MARK: - Numbers

    private func number(at i: Int) throws(ParseError) -> Token {
        var j = i
        var form = NumberForm.integer
        let prefix = byte(i + 1) | 0x20  // lowercased
        if bytes[i] == UInt8(ascii: "0"),
            prefix == UInt8(ascii: "x") || prefix == UInt8(ascii: "o") || prefix == UInt8(ascii: "b")
        {
            form = prefix == UInt8(ascii: "x") ? .hexadecimal : (prefix == UInt8(ascii: "o") ? .octal : .binary)
            j = i + 2
            let start = j
            while j < bytes.count, Lexer.isDigit(bytes[j], form: form) { j += 1 }
            if j == start {
                throw error("expected digits after '\(text(i, i + 2))'", i, max(j, wordEnd(from: i)))
            }
        } else {
            while j < bytes.count, Lexer.isDigit(bytes[j]) { j += 1 }
            if byte(j) == UInt8(ascii: ".") {
                guard Lexer.isDigit(byte(j + 1)) else {
                    throw error("expected a digit after the decimal point", i, j + 1)
                }
                form = .real
                j += 1
                while j < bytes.count, Lexer.isDigit(bytes[j]) { j += 1 }
            }
            if byte(j) | 0x20 == UInt8(ascii: "e") {
                var k = j + 1
                if byte(k) == UInt8(ascii: "+") || byte(k) == UInt8(ascii: "-") { k += 1 }
                if Lexer.isDigit(byte(k)) {
                    form = .real
                    j = k
                    while j < bytes.count, Lexer.isDigit(bytes[j]) { j += 1 }
                }
            }
        }
        if j < bytes.count, Lexer.isIdentifierPart(bytes[j]) || bytes[j] >= 0x80 {
            let stop = nonASCIIWordEnd(from: j)
            throw error("'\(text(i, stop))' is not a number or a key", i, stop)
        }
        return token(.number, i, j, flag: form.rawValue)
    }

    // MARK: - Strings

    /// A quoted string. A raw line feed inside it, escaped with a backslash
    /// or not, is an error, as it is in Apple's parser: a predicate built
    /// from `wdName = '…<LF>…'` raised "Unable to parse the format string"
    /// on iOS (facebookarchive/WebDriverAgent#962, a crash log; also
    /// calabash/calabash-ios#569). Every other character, a raw tab or
    /// carriage return included, is part of the string: Apple prints a tab
    /// raw (zmian/xcore), and its printed text must read back. A line feed
    /// is written `\n`, which is how ``FormatPrinter`` prints one
    /// (conformance case str-027).
    private func string(at i: Int) throws(ParseError) -> Token {
        let quote = bytes[i]
        var j = i + 1
        var escapes: UInt8 = 0
        while j < bytes.count {
            var b = bytes[j]
            if b == quote { return token(.string, i, j + 1, flag: escapes) }
            if b == UInt8(ascii: "\\"), j + 1 < bytes.count {
                escapes = 1
                j += 1
                b = bytes[j]
            }
            if b == 0x0A {
                throw error("line break inside a quoted string; write it as \\n", i, j)
            }
            j += 1
        }
        throw error("unterminated string: no closing \(quote == UInt8(ascii: "'") ? "'" : "\"")", i, bytes.count)
    }

    // MARK: - Format specifiers

    private func formatSpecifier(at i: Int) throws(ParseError) -> Token {
        var j = i + 1
        if byte(j) == UInt8(ascii: "%") { return token(.formatSpecifier, i, j + 1, flag: UInt8(ascii: "%")) }
        // Optional position: %2$@
        if byte(j) >= UInt8(ascii: "1") && byte(j) <= UInt8(ascii: "9") {
            var k = j
            while Lexer.isDigit(byte(k)) { k += 1 }
            if byte(k) == UInt8(ascii: "$") { j = k + 1 }
        }
        // Optional length modifier
        switch byte(j) {
        case UInt8(ascii: "h"): j += byte(j + 1) == UInt8(ascii: "h") ? 2 : 1
        case UInt8(ascii: "l"): j += byte(j + 1) == UInt8(ascii: "l") ? 2 : 1
        case UInt8(ascii: "q"), UInt8(ascii: "L"), UInt8(ascii: "z"), UInt8(ascii: "t"), UInt8(ascii: "j"): j += 1
        default: break
        }
        let c = byte(j)
        guard Lexer.conversions.contains(c) else {
            let end = j < bytes.count ? scalarEnd(at: j) : j
            throw error(
                "invalid format specifier '\(text(i, end))'; expected %@, %K, %d, %i, %u, %x, %o, %f, %e, %g, %c, %s or %%",
                i, end)
        }
        return token(.formatSpecifier, i, j + 1, flag: c)
    }

    // MARK: - Helpers

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)]), as: UTF8.self)
    }

    /// The end of the UTF-8 sequence that starts at `i`.
    private func scalarEnd(at i: Int) -> Int {
        var j = i + 1
        while j < bytes.count, bytes[j] & 0xC0 == 0x80 { j += 1 }
        return j
    }

    static let conversions: Set<UInt8> = Set("@KdiDuUxXoOfeEgGcCsS".utf8)

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    static func isDigit(_ b: UInt8, form: NumberForm) -> Bool {
        switch form {
        case .hexadecimal: return isDigit(b) || (b | 0x20) &- 0x61 < 6
        case .octal: return b &- 0x30 < 8
        case .binary: return b == 0x30 || b == 0x31
        case .integer, .real: return isDigit(b)
        }
    }

    @inline(__always) static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b | 0x20) &- 0x61 < 26 || b == UInt8(ascii: "_")
    }

    @inline(__always) static func isIdentifierPart(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || isDigit(b)
    }

    /// Whether `bytes[start..<end]`, upper-cased, is `word` (an upper-case ASCII string).
    static func equalsUppercased(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: String)
        -> Bool
    {
        guard end - start == word.utf8.count else { return false }
        var k = start
        for w in word.utf8 {
            var b = bytes[k]
            if b &- 0x61 < 26 { b -= 0x20 }
            if b != w { return false }
            k += 1
        }
        return true
    }

    // MARK: - Keywords

    private struct KeywordEntry {
        let low: UInt64
        let high: UInt64
        let kind: TokenKind
        let flag: UInt8
    }

    private static func pack(_ word: some Sequence<UInt8>) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for (index, byte) in word.enumerated() {
            var b = byte
            if b &- 0x61 < 26 { b -= 0x20 }
            if index < 8 { low |= UInt64(b) << (8 * UInt64(index)) } else { high |= UInt64(b) << (8 * UInt64(index - 8)) }
        }
        return (low, high)
    }

    /// The reserved words of ``Keywords/all`` but those with a hyphen,
    /// which are read whole by their first part (``hyphenatedWords``).
    private static let keywordTable: [KeywordEntry] = Keywords.all.compactMap { keyword in
        guard let kind = keyword.token, !keyword.word.contains("-") else { return nil }
        let (low, high) = pack(keyword.word.utf8)
        return KeywordEntry(low: low, high: high, kind: kind, flag: keyword.flag)
    }

    /// The keyword spelled by `bytes[start..<end]` (any case), if any: its
    /// token's kind and flag.
    static func keyword(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (TokenKind, UInt8)? {
        let length = end - start
        guard length >= 2 && length <= 15 else { return nil }
        let (low, high) = pack(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        for entry in keywordTable where entry.low == low && entry.high == high {
            return (entry.kind, entry.flag)
        }
        return nil
    }

    /// Whether a word (from an API, not the lexer) is a reserved word.
    static func isReserved(_ word: String) -> Bool {
        var copy = word
        return copy.withUTF8 { buffer in
            keyword(buffer, 0, buffer.count) != nil
        }
    }
}
