/// What a fetch returns, written as one list, as `sift` takes it after
/// `--select`: key paths and named aggregates, in the order their values
/// are shown.
///
/// ```swift
/// let selection = try FetchSelection("category.name, n = count:(SELF), total = sum:(price)")
/// selection.properties            // ["category.name"]
/// selection.expressions.map(\.name)  // ["n", "total"]
/// ```
///
/// Items are separated by commas outside parentheses, braces, brackets
/// and quotes. An item `name = expression` (a name of letters, digits and
/// `_`, then a single `=`) is an ``ExpressionDescription``; any other item
/// must be a key path. Errors point into the whole list, so that a caret
/// shows the item at fault; ``locate(_:)`` does the same for the errors a
/// request with this selection raises later.
public struct FetchSelection: Sendable, Hashable {
    /// One item of the list.
    public enum Item: Sendable, Hashable {
        /// A key path as written (`category.name`).
        case keyPath(String)
        /// A named expression.
        case expression(ExpressionDescription)

        /// The key the item's value has in each result.
        public var name: String {
            switch self {
            case .keyPath(let path): return path
            case .expression(let d): return d.name
            }
        }
    }

    /// The items, in the order written.
    public var items: [Item]
    /// The list as written.
    public var source: String
    /// Where each item is in ``source``: the whole item, and where its
    /// expression starts (its key path's start for a key path).
    private var spans: [(item: SourceRange, expression: Int)]

    /// The key paths, in order (``FetchSpecification/properties``).
    public var properties: [String] {
        items.compactMap { if case .keyPath(let p) = $0 { p } else { nil } }
    }

    /// The named expressions, in order (``FetchSpecification/expressions``).
    public var expressions: [ExpressionDescription] {
        items.compactMap { if case .expression(let d) = $0 { d } else { nil } }
    }

    /// The keys of the results, in the order written.
    public var names: [String] { items.map(\.name) }

    /// Parses `text`, a comma-separated list of key paths and
    /// `name = expression` items.
    public init(_ text: String) throws(ParseError) {
        source = text
        items = []
        spans = []
        let bytes = Array(text.utf8)
        for piece in Self.split(bytes) {
            var (start, end) = (piece.lowerBound, piece.upperBound)
            while start < end, Self.isBlank(bytes[start]) { start += 1 }
            while end > start, Self.isBlank(bytes[end - 1]) { end -= 1 }
            guard start < end else {
                throw ParseError(
                    .syntax, "an empty item: give a key path or name = expression between commas",
                    range: SourceRange(piece.lowerBound, piece.upperBound), source: text)
            }
            let range = SourceRange(start, end)
            if let (name, expressionStart) = Self.named(bytes, start, end) {
                let format = String(decoding: bytes[expressionStart..<end], as: UTF8.self)
                let expression = try Self.parse(format, at: expressionStart, in: text)
                var d = ExpressionDescription(name: name, expression: expression)
                d.source = format
                items.append(.expression(d))
                spans.append((range, expressionStart))
            } else {
                let node = try Self.parse(String(decoding: bytes[start..<end], as: UTF8.self), at: start, in: text)
                guard case .keyPath(let keys) = node.kind else {
                    throw ParseError(
                        .syntax, "select a key path, or name an expression: total = sum:(price)", range: range,
                        source: text)
                }
                items.append(.keyPath(keys.joined(separator: ".")))
                spans.append((range, start))
            }
        }
    }

    /// Throws at the first item that is not a key path: for a list of
    /// key paths alone, such as the keys a request groups by.
    public func requireKeyPaths() throws(ParseError) {
        for (item, span) in zip(items, spans) {
            if case .expression = item {
                throw ParseError(.syntax, "a key path is needed here, not a named expression", range: span.item, source: source)
            }
        }
    }

    /// Sets `request`'s ``FetchSpecification/properties`` and
    /// ``FetchSpecification/expressions`` to this selection's.
    public func apply(to request: inout FetchSpecification) {
        request.properties = properties
        request.expressions = expressions
    }

    /// `error`, raised by a request with this selection about one of its
    /// items (its source is the item's key path, name or expression), as an
    /// error pointing at that item in ``source``; other errors unchanged.
    public func locate(_ error: EvaluationError) -> EvaluationError {
        func located(at offset: Int) -> EvaluationError {
            var located = error
            located.range = SourceRange(offset + error.range.lowerBound, offset + error.range.upperBound)
            located.source = source
            return located
        }
        for (item, span) in zip(items, spans) {
            switch item {
            case .keyPath(let p) where p == error.source: return located(at: span.expression)
            case .expression(let d) where d.source == error.source: return located(at: span.expression)
            default: continue
            }
        }
        // A name: the last item so named, which a name used twice is about.
        for (item, span) in zip(items, spans).reversed() where item.name == error.source {
            return located(at: span.item.lowerBound)
        }
        return error
    }

    /// Equal lists: the same items from the same text.
    public static func == (a: Self, b: Self) -> Bool { a.items == b.items && a.source == b.source }
    /// Hashes the items and the text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(items)
        hasher.combine(source)
    }

    /// The byte ranges between top-level commas.
    private static func split(_ bytes: [UInt8]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var (depth, start, i) = (0, 0, 0)
        var quote: UInt8? = nil
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == UInt8(ascii: "\\") { i += 1 } else if b == q { quote = nil }
            } else {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
                case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ",") where depth <= 0:
                    pieces.append(start..<i)
                    start = i + 1
                default: break
                }
            }
            i += 1
        }
        pieces.append(start..<bytes.count)
        return pieces
    }

    /// `name =` at the start of an item: the name and where the
    /// expression after the `=` starts.
    private static func named(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (String, Int)? {
        var i = start
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
        }
        guard i < end, isNameByte(bytes[i]), !(bytes[i] >= 0x30 && bytes[i] <= 0x39) else { return nil }
        while i < end, isNameByte(bytes[i]) { i += 1 }
        let nameEnd = i
        while i < end, isBlank(bytes[i]) { i += 1 }
        guard i < end, bytes[i] == UInt8(ascii: "="), i + 1 >= end || bytes[i + 1] != UInt8(ascii: "=") else {
            return nil
        }
        i += 1
        while i < end, isBlank(bytes[i]) { i += 1 }
        return (String(decoding: bytes[start..<nameEnd], as: UTF8.self), i)
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The expression `format`, which starts at byte `offset` of `text`:
    /// its errors point into `text`.
    private static func parse(_ format: String, at offset: Int, in text: String) throws(ParseError) -> ExpressionNode {
        do {
            return try FormatParser.parseExpression(format)
        } catch {
            throw ParseError(
                error.code, error.message,
                range: SourceRange(offset + error.range.lowerBound, offset + error.range.upperBound), source: text)
        }
    }
}
