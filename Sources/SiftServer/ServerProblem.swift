import Sift
import SiftSQL

/// The problems the server adds to ``RequestProblem``'s kinds, as documents
/// of the same shape (`urn:sift:problem:` and the kind).
enum ServerProblem {
    /// A `RequestProblem` of a server kind.
    static func make(
        _ kind: String, _ title: String, status: Int, _ detail: String, parameter: String? = nil,
        value: String? = nil, range: SourceRange? = nil
    ) -> RequestProblem {
        var problem = RequestProblem(.syntax, detail, parameter: parameter, value: value, range: range)
        problem.type = "urn:sift:problem:" + kind
        problem.title = title
        problem.status = status
        return problem
    }

    static func notFound(_ detail: String) -> RequestProblem {
        make("not-found", "Nothing at this address", status: 404, detail)
    }

    static func timeout(_ limit: Duration) -> RequestProblem {
        make("timeout", "Past the time limit", status: 503, "the request ran past the server's limit of \(limit)")
    }

    static func busy(_ maximum: Int) -> RequestProblem {
        make("busy", "Too many requests at once", status: 503, "the server runs at most \(maximum) requests at once")
    }

    static func database(_ error: any Error) -> RequestProblem {
        make("database", "The database failed", status: 500, "\(error)")
    }

    /// A fetch with no exact SQL form, pointed at in the parameter it came
    /// from (422: the request reads, but this server cannot answer it exactly).
    static func lowering(_ error: SQLLoweringError, parameters: [String: String]) -> RequestProblem {
        let parameter = parameters.first { $0.value == error.source && !error.source.isEmpty }?.key
        return make(
            "sql", "No exact SQL for this fetch", status: 422, error.message, parameter: parameter,
            value: parameter == nil ? nil : error.source, range: parameter == nil ? nil : error.range)
    }
}
