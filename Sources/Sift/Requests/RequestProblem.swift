/// Why a request's parameters make no fetch, as an RFC 9457 problem
/// document (`application/problem+json`), which a server sends back as it
/// is: what kind of problem (``type``, ``title``), the HTTP ``status`` (400
/// for a parameter that does not read, 422 for one the server's policy
/// refuses), the ``detail``, and where: the ``parameter``, the
/// ``column`` (in characters, from 1) in its value, and a ``caret`` line to
/// show under the value.
///
/// ```swift
/// do {
///     _ = try FetchSpecification(entity: "Book", query: "filter=year%20%3E")
/// } catch {
///     error.status     // 400
///     error.caret      // "      ^"
/// }
/// ```
public struct RequestProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A URI naming the kind of problem: `urn:sift:problem:` and ``Kind``.
    public var type: String
    /// The kind's short description, the same for every problem of the kind.
    public var title: String
    /// The HTTP status a server answers with.
    public var status: Int
    /// This problem, in one line.
    public var detail: String
    /// The query parameter at fault, if one is.
    public var parameter: String?
    /// The value of ``parameter`` as given.
    public var value: String?
    /// Where in ``value`` the problem is, in characters from 1.
    public var column: Int?
    /// A line to show under ``value``: spaces, then `^~~~` under the part at fault.
    public var caret: String?

    /// The kinds of problem.
    public enum Kind: String, Sendable, CaseIterable {
        /// A parameter's text does not read: a filter, a sort, a number.
        case syntax
        /// A parameter the request does not take, or one given twice.
        case parameter
        /// A `$VARIABLE` with no `var.NAME` parameter, or a `var.NAME` value that is not JSON.
        case variable
        /// A grouped fetch that breaks a rule (a key fetched but not grouped).
        case grouping
        /// A part of the filter, the sort, `select`, `groupBy` or `having`
        /// that the server's policy does not allow.
        case policy
        /// A filter whose worst case is past the server's budget.
        case cost
        /// A limit past the server's maximum.
        case limit

        var title: String {
            switch self {
            case .syntax: return "A parameter does not read"
            case .parameter: return "An unknown or repeated parameter"
            case .variable: return "A variable without a value"
            case .grouping: return "A grouping that breaks a rule"
            case .policy: return "Not allowed here"
            case .cost: return "Too costly"
            case .limit: return "Past the maximum limit"
            }
        }

        var status: Int {
            switch self {
            case .policy, .cost: return 422
            default: return 400
            }
        }
    }

    /// A problem of `kind`, about `parameter`'s `value` where `range` (UTF-8
    /// bytes) is, if given.
    public init(_ kind: Kind, _ detail: String, parameter: String? = nil, value: String? = nil, range: SourceRange? = nil) {
        type = "urn:sift:problem:" + kind.rawValue
        title = kind.title
        status = kind.status
        self.detail = detail
        self.parameter = parameter
        self.value = value
        if let value, let range {
            let (_, column) = DiagnosticRenderer.lineAndColumn(of: range.lowerBound, in: value)
            let bytes = Array(value.utf8)
            let start = min(range.lowerBound, bytes.count)
            let end = min(max(range.upperBound, start), bytes.count)
            let width = max(1, String(decoding: bytes[start..<end], as: UTF8.self).count)
            self.column = column
            caret = String(repeating: " ", count: column - 1) + "^" + String(repeating: "~", count: width - 1)
        }
    }

    /// `diagnostic` about `parameter`'s value.
    init(_ kind: Kind, _ diagnostic: some SourceDiagnostic, parameter: String) {
        self.init(kind, diagnostic.message, parameter: parameter, value: diagnostic.source, range: diagnostic.range)
    }

    /// The document as JSON, its members in the order of RFC 9457's
    /// examples, those without a value left out.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .int(status)), ("detail", .string(detail)),
        ]
        if let parameter { members.append(("parameter", .string(parameter))) }
        if let value { members.append(("value", .string(value))) }
        if let column { members.append(("column", .int(column))) }
        if let caret { members.append(("caret", .string(caret))) }
        return .object(JSONObject(members))
    }

    /// The media type of ``json``.
    public static let mediaType = "application/problem+json"

    /// The status, title and detail, then the parameter with the caret under it.
    public var description: String {
        var text = "\(status) \(title): \(detail)"
        if let parameter, let value {
            text += "\n \(parameter)=\(value)"
            if let caret { text += "\n " + String(repeating: " ", count: parameter.count + 1) + caret }
        }
        return text
    }
}
