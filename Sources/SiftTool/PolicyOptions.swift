import ArgumentParser
import Foundation
import Sift

/// `--allow`: holds a predicate and its sort keys to
/// `PredicatePolicy.untrusted(keyPaths:)`, as a service taking predicates
/// from clients would, to try a policy from the command line.
struct PolicyOptions: ParsableArguments {
    @Option(name: .customLong("allow"), help: ArgumentHelp(
        "Refuse a predicate or sort key that reads a key path not in this comma-separated list ('tags.*' allows "
            + "tags and every path under it), or uses what an untrusted predicate may not: MATCHES, FUNCTION, "
            + "SUBQUERY, $VARIABLES left unset, CAST, more than 64 comparisons. Exits with 2 and points at the part.",
        valueName: "keypaths"))
    var allow: [String] = []

    @Option(name: .customLong("budget"), help: ArgumentHelp(
        "With --allow: the most work the evaluation of one record may do, in units (a byte of a string compared "
            + "or searched, an element visited); past it the record is an error. 1000000 by default.",
        valueName: "units"))
    var budget: Int?

    func validate() throws {
        _ = try keyPaths()
        if let budget, budget <= 0 { throw ValidationError("--budget must be a positive number of units") }
        if budget != nil && allow.isEmpty { throw ValidationError("--budget goes with --allow") }
    }

    /// The key paths of every `--allow`, or nil when there is none.
    private func keyPaths() throws -> Set<String>? {
        guard !allow.isEmpty else { return nil }
        var paths: Set<String> = []
        for text in allow where !text.isEmpty {
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let path = item.trimmingCharacters(in: .whitespaces)
                guard !path.isEmpty else { throw ValidationError("--allow \(text): empty key path in the list") }
                paths.insert(path)
            }
        }
        return paths
    }

    /// The policy, or nil without `--allow`.
    var policy: PredicatePolicy? {
        (try? keyPaths())?.map { paths in
            var policy = PredicatePolicy.untrusted(keyPaths: paths)
            if let budget { policy.evaluationBudget = budget }
            return policy
        }
    }

    /// The filter with the policy's evaluation budget; prints the first part
    /// of `filter` the policy refuses, with a caret under it, and exits with
    /// status 2.
    @discardableResult
    func check(_ filter: Filter) throws -> Filter {
        guard let policy else { return filter }
        do {
            return try filter.checked(by: policy)
        } catch {
            throw Self.report(error)
        }
    }

    /// Prints the first sort key the policy refuses, pointed at in `text`
    /// (the `--sort` option `keys` were parsed from), and exits with status 2.
    /// For a grouped `request`, its expressions' names are sort keys too.
    func check(sort keys: [SortKey], parsedFrom text: String?, of request: FetchSpecification? = nil) throws {
        guard let policy, let text else { return }
        do {
            try (request.map(policy.forGroups) ?? policy).check(keys, parsedFrom: text)
        } catch {
            throw Self.report(error)
        }
    }

    /// `having`, held to the policy for groups (``PredicatePolicy/forGroups(of:)``).
    func check(having: Filter, of request: FetchSpecification) throws -> Filter {
        guard let policy else { return having }
        do {
            return try having.checked(by: policy.forGroups(of: request))
        } catch {
            throw Self.report(error)
        }
    }

    static func report(_ violation: PolicyViolation) -> ExitCode {
        Terminal.printError(violation.rendered(colors: Terminal.stderrIsTTY))
        return ExitCode(2)
    }
}
