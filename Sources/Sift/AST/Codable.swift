import Foundation

// The JSON form of the syntax tree (conformances synthesised in the files
// declaring the node types). Nodes encode as `{"kind": …, "range": …}`
// with the kind's case as the single key of an object; values as a single-key
// object naming their type (`{"int": 3}`, `{"date": 12.5}`), so that integers,
// doubles and booleans keep their identity through JSON.

extension Value: Codable {
    /// The kinds' keys. Not named `Key`, which is the dictionary literal's
    /// key type of `Value` (a release build took one for the other).
    private enum KindKey: String, CodingKey {
        case null, nsNull, bool, int, double, decimal, string, date, data, uuid, array, set, dictionary, object, reference
    }

    /// Encodes the value as an object with one key naming its kind (`{"int": 3}`,
    /// `{"date": 12.5}`), so that integers, doubles and Booleans keep their kind through JSON.
    public func encode(to encoder: any Encoder) throws {
        try CodingStack.check(self, decoding: false)
        var c = encoder.container(keyedBy: KindKey.self)
        switch self {
        case .null: try c.encode(true, forKey: .null)
        case .nsNull: try c.encode(true, forKey: .nsNull)
        case .bool(let b): try c.encode(b, forKey: .bool)
        case .int(let i): try c.encode(i, forKey: .int)
        case .double(let d):
            // JSON has no infinities or NaN: those are encoded as strings.
            if d.isFinite { try c.encode(d, forKey: .double) } else { try c.encode("\(d)", forKey: .double) }
        case .decimal(let d): try c.encode(d.description, forKey: .decimal)
        case .string(let s): try c.encode(s, forKey: .string)
        case .date(let d): try c.encode(d.timeIntervalSinceReferenceDate, forKey: .date)
        case .data(let d): try c.encode(d.base64EncodedString(), forKey: .data)
        case .uuid(let u): try c.encode(u.uuidString, forKey: .uuid)
        case .array(let a): try c.encode(a, forKey: .array)
        case .set(let s):
            try c.encode(s.sorted { FormatPrinter.format(.constant($0)) < FormatPrinter.format(.constant($1)) }, forKey: .set)
        case .dictionary(let d): try c.encode(d, forKey: .dictionary)
        case .object(let o):
            // A reference is data, and decodes; other objects are encoded
            // by description only, and do not.
            if let r = o.base as? ObjectReference {
                try c.encode(r, forKey: .reference)
            } else {
                try c.encode(o.description, forKey: .object)
            }
        }
    }

    /// Decodes a value from the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        try CodingStack.check(Value.self, decoding: true)
        let c = try decoder.container(keyedBy: KindKey.self)
        guard let key = c.allKeys.first, c.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a value is an object with one key"))
        }
        switch key {
        case .null: self = .null
        case .nsNull: self = .nsNull
        case .bool: self = .bool(try c.decode(Bool.self, forKey: key))
        case .int: self = .int(try c.decode(Int.self, forKey: key))
        case .double:
            if let d = try? c.decode(Double.self, forKey: key) {
                self = .double(d)
            } else if let d = Double(try c.decode(String.self, forKey: key)) {
                self = .double(d)
            } else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a double")
            }
        case .decimal:
            guard let d = Decimal(string: try c.decode(String.self, forKey: key), locale: Locale(identifier: "en_US_POSIX"))
            else { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a decimal") }
            self = .decimal(d)
        case .string: self = .string(try c.decode(String.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try c.decode(Double.self, forKey: key)))
        case .data:
            guard let d = Data(base64Encoded: try c.decode(String.self, forKey: key))
            else { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not base64") }
            self = .data(d)
        case .uuid:
            guard let u = UUID(uuidString: try c.decode(String.self, forKey: key))
            else { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a UUID") }
            self = .uuid(u)
        case .array: self = .array(try c.decode([Value].self, forKey: key))
        case .set: self = .set(Set(try c.decode([Value].self, forKey: key)))
        case .dictionary: self = .dictionary(try c.decode([String: Value].self, forKey: key))
        case .reference: self = .reference(try c.decode(ObjectReference.self, forKey: key))
        case .object:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "objects of the user's types cannot be decoded from JSON")
        }
    }
}

/// Operators encode as their canonical spelling (`"=="`, `"BEGINSWITH"`);
/// a custom selector as the selector itself (`"isFoo:"`). The names are
/// the table's (see ``ComparisonOperator/symbol``).
extension ComparisonOperator: Codable {
    /// Encodes the operator as its canonical spelling.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(symbol)
    }

    /// Decodes an operator from its spelling; an unknown word is a custom selector.
    public init(from decoder: any Decoder) throws {
        self.init(symbol: try decoder.singleValueContainer().decode(String.self))
    }
}

// MARK: - Decoding checks what the parser guarantees

// A tree decoded from JSON may come from anywhere, so decoding holds it to
// what parsing guarantees of every tree it builds: functions with as many
// arguments as their selector has parts, options only on operators that
// take them and only the four known ones, non-empty key paths, variable
// names and selectors. Anything else is a `DecodingError`, never a tree
// that the evaluator, the printer or the SQL lowering were not written for.

extension ExpressionNode {
    /// Decodes an expression, refusing any shape the parser never builds (a `DecodingError`).
    public init(from decoder: any Decoder) throws {
        try CodingStack.check(Self.self, decoding: true)
        let c = try decoder.container(keyedBy: CodingStack.NodeKeys.self)
        let kind = try c.decode(Kind.self, forKey: .kind)
        if let problem = kind.structuralProblem {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: problem)
        }
        self.init(kind, range: try c.decodeIfPresent(SourceRange.self, forKey: .range))
    }
}

extension ExpressionNode.Kind {
    /// What makes this node one that the parser never builds, if anything
    /// (its children are checked when they are decoded).
    var structuralProblem: String? {
        switch self {
        case .function(let f, let arguments) where arguments.count != f.arity:
            return "\(f.selector) takes \(f.arity) argument\(f.arity == 1 ? "" : "s"), got \(arguments.count)"
        case .keyPath(let path) where path.isEmpty, .path(_, let path) where path.isEmpty:
            return "a key path has at least one key"
        case .keyPath(let path) where path.contains(where: \.isEmpty), .path(_, let path) where path.contains(where: \.isEmpty):
            // `["a", ""]` would print `a.`, which reads back as no key path.
            return "a key of a key path is not empty"
        case .variable(let name) where name.isEmpty, .assignment(let name, _) where name.isEmpty,
            .subquery(_, let name, _) where name.isEmpty:
            return "a variable has a name"
        case .invocation(_, let selector, _) where selector.isEmpty:
            return "FUNCTION has a selector"
        case .variableKey(_, let key):
            if case .variable(let name) = key.kind, !name.isEmpty { return nil }
            return "the key of variableKey is a variable ($NAME)"
        default:
            return nil
        }
    }
}

extension Comparison {
    enum CodingKeys: String, CodingKey { case lhs, op, rhs, modifier, options }

    /// Decodes a comparison, refusing options its operator does not take (a `DecodingError`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let op = try c.decode(ComparisonOperator.self, forKey: .op)
        let options = try c.decode(ComparisonOptions.self, forKey: .options)
        if case .customSelector(let selector) = op, selector.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "an operator has a name")
        }
        if !options.isSubset(of: .known) {
            throw DecodingError.dataCorruptedError(
                forKey: .options, in: c, debugDescription: ComparisonOptions.decodingRule)
        }
        if let problem = options.problem(after: op) {
            throw DecodingError.dataCorruptedError(forKey: .options, in: c, debugDescription: problem)
        }
        self.init(
            try c.decode(ExpressionNode.self, forKey: .lhs), op, try c.decode(ExpressionNode.self, forKey: .rhs),
            modifier: try c.decode(ComparisonModifier.self, forKey: .modifier), options: options)
    }
}

extension ExpressionNode {
    /// Encodes the expression as `{"kind": …, "range": …}`; a tree too deep for the thread's stack
    /// is an `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
        try CodingStack.encode(self, kind, range, to: encoder)
    }
}

extension PredicateNode {
    /// Decodes a predicate; a tree too deep for the thread's stack is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        try CodingStack.check(Self.self, decoding: true)
        let c = try decoder.container(keyedBy: CodingStack.NodeKeys.self)
        self.init(try c.decode(Kind.self, forKey: .kind), range: try c.decodeIfPresent(SourceRange.self, forKey: .range))
    }

    /// Encodes the predicate as `{"kind": …, "range": …}`; a tree too deep for the thread's stack
    /// is an `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
        try CodingStack.encode(self, kind, range, to: encoder)
    }
}

/// Encoding and decoding a tree recurse through the coder, about five
/// containers and twenty frames a level. Foundation's JSON coders stop at
/// 512 containers; a thread with a small stack (512 KiB, and a debug
/// build's larger frames) can run out before that, so each node checks the
/// room left on its thread's stack (found once per thread), and a tree too
/// deep for it is an `EncodingError` or `DecodingError` instead of a crash.
enum CodingStack {
    /// The stack kept free below a node: room for the coder's frames down
    /// to the next node and for the error.
    static let margin: UInt = 64 * 1024

    /// A node as `{"kind": …, "range": …}`, as the synthesised form was.
    static func encode(_ node: some Any, _ kind: some Encodable, _ range: SourceRange?, to encoder: any Encoder) throws {
        try check(node, decoding: false)
        var c = encoder.container(keyedBy: NodeKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(range, forKey: .range)
    }

    /// The keys of a node's JSON form.
    enum NodeKeys: String, CodingKey { case kind, range }

    /// The error has no coding path: building one takes a frame for each
    /// container above, which is what there is no room for.
    static func check(_ node: some Any, decoding: Bool) throws {
        guard StackBounds.isNearEnd(margin: margin) else { return }
        let context = "the tree is nested too deeply to be \(decoding ? "decoded" : "encoded") on this thread's stack"
        if decoding { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: context)) }
        throw EncodingError.invalidValue(node, .init(codingPath: [], debugDescription: context))
    }
}
