import Foundation

/// What a server allows a fetch read from request parameters
/// (``FetchSpecification/init(entity:query:options:)``).
public struct RequestFetchOptions: Sendable, Hashable {
    /// What the filter, the sort and `having` may use; nil allows all of
    /// the language. ``PredicatePolicy/untrusted(keyPaths:)`` is the usual
    /// choice for a public endpoint.
    public var policy: PredicatePolicy?
    /// The limit when the request gives none.
    public var defaultLimit: Int
    /// The largest limit a request may ask for.
    public var maximumLimit: Int
    /// The most work (``CostEstimate`` units) a filter may take on one
    /// record of ``maximumRecordSize``; nil for no bound.
    public var maximumCost: Int?
    /// The size of the largest record the server holds, in the units of
    /// ``CostEstimate`` (about its bytes of JSON).
    public var maximumRecordSize: Int
    /// Parameters the server reads itself (`page`, `format`), which are
    /// not an error.
    public var otherParameters: Set<String>

    /// Options; by default the whole language, 50 results unless the
    /// request asks for up to 1,000, no cost bound.
    public init(
        policy: PredicatePolicy? = nil, defaultLimit: Int = 50, maximumLimit: Int = 1_000, maximumCost: Int? = nil,
        maximumRecordSize: Int = 1 << 16, otherParameters: Set<String> = []
    ) {
        self.policy = policy
        self.defaultLimit = defaultLimit
        self.maximumLimit = maximumLimit
        self.maximumCost = maximumCost
        self.maximumRecordSize = maximumRecordSize
        self.otherParameters = otherParameters
    }

    /// The default options.
    public static let `default` = RequestFetchOptions()
}

extension FetchSpecification {
    /// The parameters a request's query may hold.
    public static let requestParameters = ["filter", "sort", "limit", "offset", "distinct", "select", "groupBy", "having"]

    /// A fetch read from a URL's query string (`filter=year%20%3E%201980&sort=title&limit=20`), as a
    /// browser's form sends it: `+` is a space, `%2B` a plus.
    ///
    /// ```swift
    /// let request = try FetchSpecification(entity: "Book", query: "filter=year+%3E+%24min&var.min=1980&sort=title+DESC&limit=20")
    /// request.filter?.format   // "year > 1980"
    /// request.limit            // 20
    /// ```
    ///
    /// See ``init(entity:queryItems:options:)`` for the parameters.
    public init(entity: String?, query: String, options: RequestFetchOptions = .default) throws(RequestProblem) {
        var items: [URLQueryItem] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) throws(RequestProblem) -> String {
                guard let text = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                    throw RequestProblem(.syntax, "\(pair) is not percent-encoded UTF-8")
                }
                return text
            }
            items.append(URLQueryItem(name: try decoded(parts[0]), value: parts.count > 1 ? try decoded(parts[1]) : nil))
        }
        try self.init(entity: entity, queryItems: items, options: options)
    }

    /// A fetch read from a request's query items, each of which may be
    /// given once:
    ///
    /// - `filter`: a predicate in the format language, whose `$NAME`s take
    ///   the values of parameters `var.NAME` (JSON: `var.min=1980`,
    ///   `var.name="Ann"`);
    /// - `sort`: sort keys, `title ASC, year DESC caseInsensitive`;
    /// - `limit` (``RequestFetchOptions/defaultLimit`` when absent, at most
    ///   ``RequestFetchOptions/maximumLimit``) and `offset`;
    /// - `distinct`: `true` or `false`;
    /// - `select`: key paths to fetch, and named aggregates
    ///   (`year, n = count:(SELF)`, see ``FetchSelection``); with `groupBy`
    ///   (key paths) and `having` (a predicate on each group), a grouped
    ///   fetch (<doc:GroupedFetches>).
    ///
    /// Every mistake is a ``RequestProblem`` naming the parameter and, for a
    /// text that does not read, the place in it: status 400, or 422 for a
    /// part the ``RequestFetchOptions/policy`` refuses or a filter whose
    /// ``Filter/costEstimate`` on a record of the largest size is past
    /// ``RequestFetchOptions/maximumCost``. An unknown parameter is a
    /// problem too (a misspelt `fitler` would otherwise fetch everything),
    /// unless the server names it in ``RequestFetchOptions/otherParameters``.
    public init(entity: String?, queryItems: [URLQueryItem], options: RequestFetchOptions = .default) throws(RequestProblem) {
        var given: [String: String] = [:]
        var variables: [String: Value] = [:]
        for item in queryItems {
            let value = item.value ?? ""
            if item.name.hasPrefix("var.") {
                let name = String(item.name.dropFirst(4))
                guard variables[name] == nil else {
                    throw RequestProblem(.parameter, "\(item.name) is given twice", parameter: item.name)
                }
                do {
                    variables[name] = try JSONValue(parsing: value).predicateValue
                } catch {
                    throw RequestProblem(
                        .variable, "\(item.name) must be JSON (a string in double quotes: \"Ann\"): \(error)",
                        parameter: item.name, value: value)
                }
                continue
            }
            if options.otherParameters.contains(item.name) { continue }
            guard Self.requestParameters.contains(item.name) else {
                throw RequestProblem(
                    .parameter,
                    "unknown parameter \(item.name): the parameters are "
                        + Self.requestParameters.joined(separator: ", ") + " and var.NAME",
                    parameter: item.name)
            }
            guard given[item.name] == nil else {
                throw RequestProblem(.parameter, "\(item.name) is given twice", parameter: item.name)
            }
            given[item.name] = value
        }
        self.init(entity: entity)
        let policy = options.policy
        if let text = given["filter"] {
            filter = try Self.predicate(text, parameter: "filter", variables: variables, policy: policy)
            if let maximum = options.maximumCost, let filter {
                let units = filter.costEstimate.units(forInputSize: options.maximumRecordSize)
                if units > maximum {
                    throw RequestProblem(
                        .cost,
                        "the filter may take \(units) units of work on a record of \(options.maximumRecordSize) "
                            + "(\(filter.costEstimate)); the server allows \(maximum)",
                        parameter: "filter", value: text, range: SourceRange(0, text.utf8.count))
                }
            }
        }
        if let text = given["sort"] {
            do {
                sort = try SortKey.parse(text)
            } catch {
                throw RequestProblem(.syntax, error, parameter: "sort")
            }

        }
        limit = try Self.count("limit", given["limit"]) ?? options.defaultLimit
        if let limit, limit > options.maximumLimit {
            throw RequestProblem(
                .limit, "limit \(limit) is past the server's maximum, \(options.maximumLimit)", parameter: "limit",
                value: given["limit"], range: SourceRange(0, given["limit"]?.utf8.count ?? 0))
        }
        offset = try Self.count("offset", given["offset"]) ?? 0
        if let text = given["distinct"] {
            switch text.lowercased() {
            case "true", "1", "yes": distinct = true
            case "false", "0", "no": distinct = false
            default:
                throw RequestProblem(
                    .syntax, "distinct is true or false", parameter: "distinct", value: text,
                    range: SourceRange(0, text.utf8.count))
            }
        }
        try readGrouping(given, variables: variables, policy: policy)
        // After the grouping: a grouped fetch sorts by its expressions' names too.
        if let text = given["sort"], let policy {
            do {
                try policy.forGroups(of: self).check(sort, parsedFrom: text)
            } catch {
                throw RequestProblem(.policy, error, parameter: "sort")
            }
        }
    }

    /// `groupBy`, `select` and `having`, checked as a grouped fetch checks
    /// them.
    private mutating func readGrouping(_ given: [String: String], variables: [String: Value], policy: PredicatePolicy?)
        throws(RequestProblem)
    {
        var keys: FetchSelection?
        var selection: FetchSelection?
        do {
            if let text = given["groupBy"] {
                keys = try FetchSelection(text)
                try keys?.requireKeyPaths()
                groupBy = keys?.properties
            }
        } catch {
            throw RequestProblem(.syntax, error, parameter: "groupBy")
        }
        do {
            if let text = given["select"] {
                selection = try FetchSelection(text)
                selection?.apply(to: &self)
            }
        } catch {
            throw RequestProblem(.syntax, error, parameter: "select")
        }
        if let policy {
            do {
                try policy.check(grouping: self)
            } catch {
                // Pointed at in the parameter it is in.
                let problem = EvaluationError(.unsupported, error.message, range: error.range, source: error.source)
                if let keys, keys.properties.contains(error.source) {
                    throw RequestProblem(.policy, keys.locate(problem), parameter: "groupBy")
                }
                throw RequestProblem(.policy, selection?.locate(problem) ?? problem, parameter: "select")
            }
        }
        if let text = given["having"] {
            // Its `$name`s and names are the expressions' values (which the
            // grouping check below holds it to), not request variables.
            having = try Self.predicate(text, parameter: "having", variables: nil, policy: policy?.forGroups(of: self))
        }
        guard isGrouped || having != nil else { return }
        do {
            _ = try GroupedFetchAccumulator(self)
        } catch {
            if let located = selection?.locate(error), located.source != error.source {
                throw RequestProblem(.grouping, located, parameter: "select")
            }
            if let located = keys?.locate(error), located.source != error.source {
                throw RequestProblem(.grouping, located, parameter: "groupBy")
            }
            let parameter = error.source == given["having"] ? "having" : (given["select"] != nil ? "select" : "groupBy")
            throw RequestProblem(.grouping, error.message, parameter: parameter, value: error.source.isEmpty ? nil : error.source,
                                 range: error.source.isEmpty ? nil : error.range)
        }
    }

    /// A predicate parameter, its variables substituted (unless
    /// `variables` is nil), checked by `policy`.
    private static func predicate(
        _ text: String, parameter: String, variables: [String: Value]?, policy: PredicatePolicy?
    ) throws(RequestProblem) -> Filter {
        var filter: Filter
        do {
            filter = try Filter(text)
            if let variables, !filter.variableNames.isEmpty { filter = try filter.substituting(variables) }
        } catch {
            throw RequestProblem(error.code == .unboundVariable ? .variable : .syntax, error, parameter: parameter)
        }
        guard let policy else { return filter }
        do {
            return try filter.checked(by: policy)
        } catch {
            throw RequestProblem(.policy, error, parameter: parameter)
        }
    }

    /// A number of results, 0 or more.
    private static func count(_ parameter: String, _ text: String?) throws(RequestProblem) -> Int? {
        guard let text else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw RequestProblem(
                .syntax, "\(parameter) is a whole number, 0 or more", parameter: parameter, value: text,
                range: SourceRange(0, text.utf8.count))
        }
        return n
    }
}
