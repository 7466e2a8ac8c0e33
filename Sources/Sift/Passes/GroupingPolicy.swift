extension PredicatePolicy {
    /// The policy for a grouped request's `having` and sort keys: this one,
    /// with the request's expression names allowed as key paths and as
    /// `$variables` (a grouped fetch checks that they name its expressions
    /// or grouped keys, which ``check(grouping:)`` holds to this policy).
    public func forGroups(of request: FetchSpecification) -> PredicatePolicy {
        guard request.isGrouped else { return self }
        var policy = self
        policy.allowsVariables = true
        policy.keyPaths?.formUnion(request.expressions.map(\.name))
        return policy
    }

    /// Throws for the first grouped key path, fetched key path or
    /// aggregate of `request` that the policy refuses (`sum:(secret)` reads
    /// `secret`; `count:(SELF)` reads no key). The violation's source is
    /// the key path, or the aggregate's text.
    public func check(grouping request: FetchSpecification) throws(PolicyViolation) {
        for path in (request.groupBy ?? []) + (request.properties ?? []) {
            do {
                try check([SortKey.ascending(path)])
            } catch {
                throw PolicyViolation(error.part, error.message, range: SourceRange(0, path.utf8.count), source: path)
            }
        }
        for d in request.expressions {
            if case .function(.count, let arguments) = d.expression.kind, arguments.count == 1,
                case .evaluatedObject = arguments[0].kind
            {
                continue
            }
            let test = PredicateNode(.comparison(Comparison(d.expression, .notEqualTo, .constant(.null))))
            try check(Filter(test, source: d.source))
        }
    }
}
