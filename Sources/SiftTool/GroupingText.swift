import Sift

/// A grouping as written — the grouped keys, the selection and `having` —
/// parsed: the one reading of `--group-by`/`--select`/`--having` and of the
/// REPL's `:group KEYS SELECT … HAVING …`.
struct GroupingText {
    var keys: FetchSelection?
    var selection: FetchSelection?
    var having: Filter?
    /// The keys of each result, in the order shown: the selection's names,
    /// else the grouped keys.
    var columns: [String] = []

    /// Parses each part given; the grouped keys must be key paths.
    init(groupBy: String?, select: String?, having: String?) throws(ParseError) {
        if let groupBy {
            let keys = try FetchSelection(groupBy)
            try keys.requireKeyPaths()
            self.keys = keys
            columns = keys.properties
        }
        if let select {
            let selection = try FetchSelection(select)
            self.selection = selection
            columns = selection.names
        }
        if let having { self.having = try Filter(having) }
    }

    /// `request` grouped this way.
    func applied(to request: FetchSpecification) -> FetchSpecification {
        var r = request
        r.groupBy = keys?.properties
        selection?.apply(to: &r)
        r.having = having
        return r
    }

    /// `error`, pointed at in the part it comes from.
    func locate(_ error: EvaluationError) -> EvaluationError {
        // The grouped keys first: a key path both grouped and selected is
        // checked, and refused, as a grouped key.
        if let keys, keys.properties.contains(error.source) { return keys.locate(error) }
        return selection?.locate(error) ?? error
    }
}
