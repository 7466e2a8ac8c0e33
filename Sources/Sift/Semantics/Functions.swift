import Foundation

/// Built-in functions, `CAST`, and the selectors `FUNCTION(…)` and custom
/// selector operators may name.
enum Functions {
    static func call(_ f: BuiltinFunction, _ args: [Value]) throws(Failure) -> Value {
        switch f {
        case .sum:
            return try Aggregates.sum(try Aggregates.elements(args[0], what: f.rawValue), what: f.rawValue)
        case .count:
            return .int(try Aggregates.elements(args[0], what: f.rawValue).count)
        case .min, .max:
            let items = try Aggregates.elements(args[0], what: f.rawValue)
            _ = try Aggregates.numbers(items, what: f.rawValue)
            guard var best = items.first else {
                throw Failure(.emptyCollection, "\(f.rawValue) of an empty collection")
            }
            for v in items.dropFirst() {
                let order = try Ordering.compare(v, best, options: [])
                if f == .max ? order == .orderedDescending : order == .orderedAscending { best = v }
            }
            return best
        case .average: return try Aggregates.average(try Aggregates.elements(args[0], what: f.rawValue))
        case .median: return try Aggregates.median(try Aggregates.elements(args[0], what: f.rawValue))
        case .mode: return try Aggregates.mode(try Aggregates.elements(args[0], what: f.rawValue))
        case .stddev: return try Aggregates.stddev(try Aggregates.elements(args[0], what: f.rawValue))
        case .add, .subtract, .multiply, .divide, .modulus, .raise, .bitwiseAnd, .bitwiseOr, .bitwiseXor,
            .leftshift, .rightshift:
            return try Arithmetic.apply(f, args[0], args[1])
        case .sqrt, .log, .ln, .exp, .floor, .ceiling, .abs, .trunc, .onesComplement:
            return try Arithmetic.apply(f, args[0])
        case .random:
            return .double(Double.random(in: 0..<1))
        case .randomn:
            guard let n = NumericValue(args[0])?.exactInt, n > 0 else {
                throw Failure(.typeMismatch, "randomn: needs a positive integer")
            }
            return .int(Int.random(in: 0..<n))
        case .now:
            return .date(Date())
        case .lowercase, .uppercase, .length:
            guard case .string(let s) = args[0] else {
                throw Failure(.typeMismatch, "\(f.rawValue) needs a string, got \(describe(args[0]))")
            }
            switch f {
            case .lowercase: return .string(s.lowercased())
            case .uppercase: return .string(s.uppercased())
            default: return .int(s.utf16.count)
            }
        case .noindex:
            return args[0]
        case .distinct:
            throw Failure(.unsupported, "distinct: is only meaningful to a database fetch")
        }
    }

    static func describe(_ v: Value) -> String {
        if v.isNull { return "nil" }
        let name = v.typeName
        return ("aeiou".contains(name.prefix(1).lowercased()) ? "an " : "a ") + name
    }

    // MARK: - CAST

    static func cast(_ value: Value, to type: String) throws(Failure) -> Value {
        switch type {
        case "NSDate", "Date":
            switch value {
            case .date: return value
            case .null, .nsNull: return .null
            default:
                if let n = NumericValue(value) { return .date(Date(timeIntervalSinceReferenceDate: n.doubleValue)) }
            }
        case "NSNumber":
            switch value {
            case .bool, .int, .double, .decimal: return value
            case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
            case .string(let s):
                if let n = Conversions.number(from: s) { return n }
                throw Failure(.unknownType, "CAST: \"\(s)\" is not a number")
            case .null, .nsNull: return .null
            default: break
            }
        case "NSDecimalNumber":
            switch value {
            case .string(let s):
                if case let n? = Conversions.number(from: s), let num = NumericValue(n) {
                    return .decimal(try Conversions.decimal(num))
                }
                throw Failure(.unknownType, "CAST: \"\(s)\" is not a number")
            case .null, .nsNull: return .null
            default:
                if let n = NumericValue(value) { return .decimal(try Conversions.decimal(n)) }
            }
        case "NSString", "String":
            if value.isNull { return .null }
            return .string(Conversions.description(value))
        case "NSUUID":
            if case .string(let s) = value, let u = UUID(uuidString: s) { return .uuid(u) }
            if case .uuid = value { return value }
        case "NSData":
            if case .data = value { return value }
            if case .string(let s) = value { return .data(Data(s.utf8)) }
        default:
            throw Failure(.unknownType, "CAST to unknown type \"\(type)\"")
        }
        throw Failure(.unknownType, "cannot CAST \(describe(value)) to \(type)")
    }

    // MARK: - Selectors

    /// The selectors `FUNCTION` calls, by the receiver's kind: each of
    /// Foundation's methods that takes and returns values Sift has (those
    /// with no argument are the method keys, ``MethodKey``).
    static let selectors: [(receiver: String, names: [String])] = [
        ("a string", MethodKey.names(of: \.answersString) + [
            "stringByAppendingString:", "stringByAppendingPathComponent:", "stringByAppendingPathExtension:",
            "stringByReplacingOccurrencesOfString:withString:", "componentsSeparatedByString:", "substringFromIndex:",
            "substringToIndex:", "hasPrefix:", "hasSuffix:", "containsString:", "isEqualToString:", "isEqual:",
            "compare:", "caseInsensitiveCompare:",
        ]),
        ("a number", MethodKey.names(of: \.answersNumber) + ["isEqualToNumber:", "isEqual:", "compare:"]),
        ("a date", MethodKey.names(of: \.answersDate) + ["dateByAddingTimeInterval:", "timeIntervalSinceDate:", "isEqual:", "compare:"]),
        ("an array or a set", ["count", "objectAtIndex:", "isEqual:"]),
    ]

    /// `FUNCTION(receiver, "selector", args…)`: the methods available by name.
    /// `maximumLength` bounds the length of a string it makes
    /// (``Filter/maximumFunctionResultLength``).
    static func invoke(
        _ selector: String, on receiver: Value, _ args: [Value],
        maximumLength: Int = Filter.defaultMaximumFunctionResultLength
    ) throws(Failure) -> Value {
        let arity = selector.utf8.filter { $0 == UInt8(ascii: ":") }.count
        guard arity == args.count else {
            throw Failure(.unknownFunction, "\(selector) takes \(arity) argument\(arity == 1 ? "" : "s"), got \(args.count)")
        }
        if arity == 0, let v = try KeyValueAccess.methodKey(selector, on: receiver) { return v }
        if case .string(let s) = receiver, let v = try stringMethod(selector, s, args, maximumLength: maximumLength) {
            return v
        }
        switch (selector, receiver) {
        case ("count", .array(let a)): return .int(a.count)
        case ("count", .set(let s)): return .int(s.count)
        case ("count", .dictionary(let d)): return .int(d.count)
        case ("stringByAppendingString:", .string(let s)):
            guard case .string(let t) = args[0] else { break }
            try checkLength(s.utf16.count.addingSaturating(t.utf16.count), selector, maximumLength)
            return .string(s + t)
        case ("hasPrefix:", .string(let s)):
            guard case .string(let t) = args[0] else { break }
            return .bool(s.utf8.starts(with: t.utf8))
        case ("hasSuffix:", .string(let s)):
            guard case .string(let t) = args[0] else { break }
            return .bool(s.utf8.reversed().starts(with: t.utf8.reversed()))
        case ("containsString:", .string(let s)):
            guard case .string(let t) = args[0] else { break }
            return .bool(t.isEmpty ? false : StringSemantics.search(s, t, .substring, .normalized))
        case ("isEqualToString:", .string), ("isEqual:", _):
            return .bool(Ordering.equal(receiver, args[0], options: []))
        case ("dateByAddingTimeInterval:", .date(let d)):
            guard let n = NumericValue(args[0]) else { break }
            return .date(d.addingTimeInterval(n.doubleValue))
        case ("timeIntervalSinceDate:", .date(let d)):
            guard case .date(let e) = args[0] else { break }
            return .double(d.timeIntervalSince(e))
        case ("objectAtIndex:", .array(let a)):
            guard let i = NumericValue(args[0])?.exactInt else { break }
            guard a.indices.contains(i) else { throw Failure(.indexOutOfRange, "index \(i) beyond bounds of \(a.count)") }
            return a[i]
        case ("isEqualToNumber:", _):
            guard receiver.isNumber, args[0].isNumber else { break }
            return .bool(Ordering.equal(receiver, args[0], options: []))
        case ("compare:", _) where !receiver.isNull && !args[0].isNull:
            return .int(try Ordering.compare(receiver, args[0], options: []).rawValue)
        default:
            break
        }
        let supported = selectors.map { "\($0.receiver): \($0.names.joined(separator: ", "))" }.joined(separator: "; ")
        throw Failure(
            .unknownFunction,
            "unrecognized selector \(selector) sent to \(describe(receiver))"
                + (args.isEmpty ? "" : " with \(args.map(describe).joined(separator: ", "))")
                + ". FUNCTION calls these methods of Foundation's (others take or return values Sift has no form for): "
                + supported)
    }

    /// Refuses a string of `length` UTF-16 units that `selector` would make,
    /// when it is over `maximumLength`, before it is made.
    private static func checkLength(_ length: Int, _ selector: String, _ maximumLength: Int) throws(Failure) {
        guard length > maximumLength else { return }
        throw Failure(
            .limit,
            "\(selector) would make a string of \(length) UTF-16 units, over the \(maximumLength) a FUNCTION may make "
                + "(Filter.maximumFunctionResultLength)")
    }

    /// NSString's methods with arguments, with Foundation's results;
    /// nil for a selector it does not have or arguments of other kinds
    /// (then the error says what is supported).
    private static func stringMethod(
        _ selector: String, _ s: String, _ args: [Value], maximumLength: Int
    ) throws(Failure) -> Value? {
        let text: [String?] = args.map { v -> String? in
            if case .string(let t) = v { return t }
            return nil
        }
        let index = args.first.flatMap { NumericValue($0)?.exactInt }
        switch selector {
        case "stringByAppendingPathComponent:":
            guard let component = text[0] else { return nil }
            try checkLength(s.utf16.count.addingSaturating(component.utf16.count + 1), selector, maximumLength)
            return .string((s as NSString).appendingPathComponent(component))
        case "stringByAppendingPathExtension:":
            // Foundation answers nil for "" and "/" (and says so on the
            // console, which this never reaches).
            guard let ext = text[0] else { return nil }
            guard !s.isEmpty, s.contains(where: { $0 != "/" }) else { return .null }
            try checkLength(s.utf16.count.addingSaturating(ext.utf16.count + 1), selector, maximumLength)
            return (s as NSString).appendingPathExtension(ext).map(Value.string) ?? .null
        case "stringByReplacingOccurrencesOfString:withString:":
            guard let target = text[0], let replacement = text[1] else { return nil }
            // The result's length is known before it is made: each
            // occurrence may grow it by the replacement, which the budget
            // counts only once it exists.
            let n = s as NSString
            var occurrences = 0
            var rest = NSRange(location: 0, length: n.length)
            while !target.isEmpty, rest.length > 0 {
                let found = n.range(of: target, options: [], range: rest)
                guard found.location != NSNotFound else { break }
                occurrences += 1
                let next = found.location + max(found.length, 1)
                rest = NSRange(location: next, length: n.length - next)
            }
            let growth = max(0, (replacement as NSString).length - (target as NSString).length)
            try checkLength(n.length.addingSaturating(occurrences.multipliedSaturating(by: growth)), selector, maximumLength)
            return .string(n.replacingOccurrences(of: target, with: replacement))
        case "componentsSeparatedByString:":
            guard let separator = text[0] else { return nil }
            guard !separator.isEmpty else { return .array([.string(s)]) }
            return .array((s as NSString).components(separatedBy: separator).map(Value.string))
        case "substringFromIndex:", "substringToIndex:":
            guard let i = index else { return nil }
            let length = s.utf16.count
            guard (0...length).contains(i) else {
                throw Failure(.indexOutOfRange, "\(selector) \(i) beyond the length of the string (\(length))")
            }
            let n = s as NSString
            return .string(selector == "substringFromIndex:" ? n.substring(from: i) : n.substring(to: i))
        case "caseInsensitiveCompare:":
            return text[0].map { Value.int((s as NSString).caseInsensitiveCompare($0).rawValue) }
        default:
            return nil
        }
    }

    // MARK: - Uniform type identifiers

    /// The built-in type tree for UTI-CONFORMS-TO (there is no system type
    /// database on Linux): each identifier with the identifiers it directly
    /// conforms to.
    static let typeTree: [String: [String]] = [
        "public.item": [],
        "public.content": [],
        "public.data": ["public.item"],
        "public.directory": ["public.item"],
        "public.folder": ["public.directory"],
        "public.image": ["public.data", "public.content"],
        "public.jpeg": ["public.image"],
        "public.png": ["public.image"],
        "public.tiff": ["public.image"],
        "public.heic": ["public.image"],
        "com.compuserve.gif": ["public.image"],
        "public.text": ["public.data", "public.content"],
        "public.plain-text": ["public.text"],
        "public.utf8-plain-text": ["public.plain-text"],
        "public.html": ["public.text"],
        "public.json": ["public.text"],
        "public.xml": ["public.text"],
        "public.url": ["public.data"],
        "public.file-url": ["public.url"],
        "public.audiovisual-content": ["public.data", "public.content"],
        "public.movie": ["public.audiovisual-content"],
        "public.video": ["public.movie"],
        "public.mpeg-4": ["public.movie"],
        "com.apple.quicktime-movie": ["public.movie"],
        "public.audio": ["public.audiovisual-content"],
        "public.mp3": ["public.audio"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.composite-content": ["public.content"],
        "public.archive": ["public.data"],
        "public.zip-archive": ["public.archive"],
    ]

    static func conforms(_ type: String, to parent: String) -> Bool {
        if type == parent { return true }
        var seen: Set<String> = [type]
        var queue = [type]
        while let next = queue.popLast() {
            for p in typeTree[next] ?? [] where seen.insert(p).inserted {
                if p == parent { return true }
                queue.append(p)
            }
        }
        return false
    }
}

extension BuiltinFunction {
    /// The function applied to `arguments` as memory applies it (what
    /// `sift_function`, registered by `SiftSQLite`, runs on SQLite, and what
    /// the SQL lowering folds constants with); memory's error, by its message.
    /// A wrong number of arguments is an error too.
    package func apply(_ arguments: [Value]) throws(ArithmeticFailure) -> Value {
        guard arguments.count == arity else {
            throw ArithmeticFailure(message: "\(rawValue) takes \(arity) arguments, got \(arguments.count)")
        }
        do throws(Failure) {
            return try Functions.call(self, arguments)
        } catch {
            throw ArithmeticFailure(message: error.message)
        }
    }

    /// The function's number in SQL (`sift_function`'s first argument): its
    /// place in ``allCases``.
    package var code: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The function numbered `code` (``code``).
    package init?(code: Int) {
        guard Self.allCases.indices.contains(code) else { return nil }
        self = Self.allCases[code]
    }
}

extension Value {
    /// `CAST(self, type)` as memory casts (what the SQL lowering folds a
    /// constant's cast with); memory's error, by its message.
    package func cast(to type: String) throws(ArithmeticFailure) -> Value {
        do throws(Failure) {
            return try Functions.cast(self, to: type)
        } catch {
            throw ArithmeticFailure(message: error.message)
        }
    }
}
