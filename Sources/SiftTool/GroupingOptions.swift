import ArgumentParser
import Sift
import SiftSQL

/// The options of a grouped fetch, the same for `sift filter`, `sift
/// query` and `sift sql`: `--group-by`, `--select`, `--having`.
struct GroupingOptions: ParsableArguments {
    @Option(name: .customLong("group-by"), help: ArgumentHelp(
        "Key paths to group by (through to-one relationships), e.g. 'category.name,year': one result per group.",
        valueName: "keys"))
    var groupBy: String?

    @Option(help: ArgumentHelp(
        "What each result holds, in order: grouped key paths and named aggregates, e.g. 'category.name,n=count:(SELF),total=sum:(price)' (count:, sum:, average:, min:, max:). By default the grouped key paths. Key paths alone without --group-by fetch those properties of each object (or record).",
        valueName: "items"))
    var select: String?

    @Option(help: ArgumentHelp(
        "A predicate each group must match: grouped key paths, and an aggregate by its name ($total or total), e.g. '$n > 1'.",
        valueName: "predicate"))
    var having: String?

    /// Whether the options ask for a grouped fetch.
    var isGiven: Bool { groupBy != nil || select != nil || having != nil }

    /// The grouping as parsed, and what shows its errors.
    struct Parsed {
        var text: GroupingText
        var columns: [String] { text.columns }

        /// Prints a lowering `error` about a grouped key path or an
        /// aggregate pointed at in the option it comes from (else as it
        /// is), and returns the exit status 2.
        func report(_ error: SQLLoweringError) -> ExitCode {
            let asEvaluation = EvaluationError(.unsupported, error.message, range: error.range, source: error.source)
            let located = locate(asEvaluation)
            guard located.source != asEvaluation.source else { return error.report() }
            Terminal.printError(located.rendered(colors: Terminal.stderrIsTTY))
            return ExitCode(2)
        }

        /// `error`, pointed at in the option it comes from.
        func locate(_ error: EvaluationError) -> EvaluationError { text.locate(error) }
    }

    /// Sets `request`'s grouping from the options and checks it as a grouped
    /// fetch does (every fetched key path grouped, names used once, an
    /// aggregate in each expression), before anything is read. A mistake is
    /// printed with a caret under it in the option's text and exits with 2.
    /// `--having` is checked against the policy as the predicate is.
    ///
    /// With `properties`, `--select` of key paths alone (no aggregate, no
    /// `--group-by`) is a fetch of those properties of each object (Core
    /// Data's `propertiesToFetch` without grouping), one result an object,
    /// or a distinct combination with `--distinct`.
    func apply(to request: inout FetchSpecification, policy: PolicyOptions, properties: Bool = false) throws -> Parsed {
        let parsed: Parsed
        do {
            parsed = Parsed(text: try GroupingText(groupBy: groupBy, select: select, having: having))
        } catch {
            throw Self.report(error)
        }
        request = parsed.text.applied(to: request)
        if let rules = policy.policy {
            do {
                try rules.check(grouping: request)
            } catch {
                // Pointed at in the option it is in.
                let located = parsed.locate(EvaluationError(.unsupported, error.message, range: error.range, source: error.source))
                Terminal.printError(located.rendered(colors: Terminal.stderrIsTTY))
                throw ExitCode(2)
            }
        }
        if let having = request.having { request.having = try policy.check(having: having, of: request) }
        // The policy checked the fetched key paths with the grouping's above.
        if properties, !request.isGrouped, request.having == nil, request.properties != nil { return parsed }
        if !request.isGrouped {
            throw ValidationError(
                request.having != nil
                    ? "--having tests groups: give --group-by"
                    : "--select without --group-by needs an aggregate (n=count:(SELF)); for each distinct combination of some keys, add --distinct or group by them")
        }
        do {
            _ = try GroupedFetchAccumulator(request)
        } catch {
            throw Self.report(parsed.locate(error))
        }
        return parsed
    }

    static func report(_ error: some SourceDiagnostic) -> ExitCode {
        Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY))
        return ExitCode(2)
    }

    /// Grouped results (dictionaries) as rows of `columns`: a nil value,
    /// which a result leaves out, is nil in its column.
    static func rows(_ results: [Value], columns: [String]) -> [[Value]] {
        results.map { result in
            guard case .dictionary(let d) = result else { return columns.map { _ in .null } }
            return columns.map { d[$0] ?? .null }
        }
    }
}

/// Prints grouped results: a table, JSON Lines, a JSON array (each result
/// an object of the columns in order, nil as null) or CSV (nil empty).
enum GroupedOutput {
    static func print(_ rows: [[Value]], columns: [String], output: RowOutput) {
        var out = OutputBuffer()
        func object(_ row: [Value]) -> String {
            JSONValue.object(JSONObject(zip(columns, row).map { ($0, RowFormatting.json($1)) })).jsonText
        }
        switch output {
        case .jsonl: for row in rows { out.write(object(row)) }
        case .json: out.write(rows.isEmpty ? "[]" : "[\n" + rows.map { "  " + object($0) }.joined(separator: ",\n") + "\n]")
        case .table: for line in RowFormatting.table(columns, rows) { out.write(line) }
        case .csv: for line in CSVText.lines(columns, rows) { out.write(line) }
        }
        out.flush()
    }
}
