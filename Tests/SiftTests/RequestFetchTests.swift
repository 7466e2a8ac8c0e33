import Foundation
import Sift
import Testing

/// Fetches read from request parameters: each parameter, and each mistake
/// as a problem document with its place.
struct RequestFetchTests {
    let books: [Value] = [
        ["title": "Dune", "year": 1965, "secret": 1],
        ["title": "Emma", "year": 1815, "secret": 2],
        ["title": "Zed", "year": 1984, "secret": 3],
        ["title": "Neuromancer", "year": 1984, "secret": 4],
    ]

    @Test func theDocumentedExample() throws {
        let request = try FetchSpecification(entity: "Book", query: "filter=year+%3E+%24min&var.min=1980&sort=title+DESC&limit=20")
        #expect(request.filter?.format == "year > 1980")
        #expect(request.limit == 20)
        #expect(request.sort == [.descending("title")])
        do {
            _ = try FetchSpecification(entity: "Book", query: "filter=year%20%3E")
            Issue.record("no problem")
        } catch {
            #expect(error.status == 400)
            #expect(error.caret == "      ^")
        }
    }

    @Test func parametersMakeTheSameFetchAsCode() throws {
        let read = try FetchSpecification(
            entity: nil, query: "filter=title+BEGINSWITH+%22N%22+OR+year+%3C+1900&sort=year,title&limit=1&offset=1&distinct=true")
        let built = FetchSpecification(
            filter: try Filter("title BEGINSWITH \"N\" OR year < 1900"), sort: [.ascending("year"), .ascending("title")],
            offset: 1, limit: 1, distinct: true)
        #expect(read == FetchSpecification(filter: read.filter, sort: built.sort, offset: 1, limit: 1, distinct: true))
        #expect(try read.execute(on: books) == built.execute(on: books))
        #expect(try read.execute(on: books) == [books[3]])
        // A plus is %2B; + is a space, as a form sends it.
        let plus = try FetchSpecification(entity: nil, query: "filter=year+%3D%3D+1900+%2B+84")
        #expect(plus.filter?.format == "year == 1900 + 84")
        // The default limit, and the server's other parameters.
        let defaults = try FetchSpecification(
            entity: nil, queryItems: [URLQueryItem(name: "page", value: "2")],
            options: RequestFetchOptions(defaultLimit: 3, otherParameters: ["page"]))
        #expect(defaults.limit == 3 && defaults.filter == nil)
        // A grouped fetch.
        let grouped = try FetchSpecification(
            entity: nil, queryItems: [
                URLQueryItem(name: "groupBy", value: "year"), URLQueryItem(name: "select", value: "year, n = count:(SELF)"),
                URLQueryItem(name: "having", value: "$n > 1"),
            ])
        #expect(try grouped.execute(on: books) == [["year": 1984, "n": 2]])
    }

    func problem(_ query: String, _ options: RequestFetchOptions = .default) -> RequestProblem? {
        do {
            _ = try FetchSpecification(entity: "Book", query: query, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func mistakesAreProblemDocumentsWithTheirPlace() throws {
        let syntax = try #require(problem("filter=title+%3D%3D+%27a%27+AND+(year"))
        #expect(syntax.status == 400 && syntax.type == "urn:sift:problem:syntax" && syntax.parameter == "filter")
        #expect(syntax.value == "title == 'a' AND (year" && syntax.column != nil && syntax.caret?.hasSuffix("^") == true)
        #expect(problem("fitler=year+%3E+1")?.detail.hasPrefix("unknown parameter fitler") == true)
        #expect(problem("limit=1&limit=2")?.detail == "limit is given twice")
        #expect(problem("limit=-1")?.type == "urn:sift:problem:syntax")
        #expect(problem("limit=5000")?.type == "urn:sift:problem:limit")
        #expect(problem("distinct=maybe")?.parameter == "distinct")
        let unbound = try #require(problem("filter=year+%3E+%24min"))
        #expect(unbound.type == "urn:sift:problem:variable" && unbound.status == 400)
        #expect(problem("filter=title+%3D%3D+%24t&var.t=Ann")?.detail.contains("must be JSON") == true)
        #expect(problem("filter=title+%3D%3D+%24t&var.t=%22Ann%22") == nil)
        let sort = try #require(problem("sort=title+SIDEWAYS"))
        #expect(sort.parameter == "sort" && sort.status == 400)
        let grouping = try #require(problem("groupBy=year&select=year,title"))
        #expect(grouping.type == "urn:sift:problem:grouping" && grouping.parameter == "select")
        #expect(grouping.caret == "     ^~~~~")
        let having = try #require(problem("groupBy=year&select=year,n%3Dcount:(SELF)&having=count:(SELF)+%3E+1"))
        #expect(having.parameter == "having" && having.caret == "^~~~~~~~~~~~")
    }

    @Test func thePolicyRefusesWith422() throws {
        let options = RequestFetchOptions(policy: .untrusted(keyPaths: ["title", "year"]))
        let secret = try #require(problem("filter=title+%3D%3D+%27a%27+OR+secret+%3D%3D+1", options))
        #expect(secret.status == 422 && secret.type == "urn:sift:problem:policy")
        #expect(secret.caret == String(repeating: " ", count: 16) + "^~~~~~")
        let sort = try #require(problem("sort=year,secret+DESC", options))
        #expect(sort.status == 422 && sort.caret == "     ^~~~~~")
        let grouped = try #require(problem("groupBy=secret&select=secret,n%3Dcount:(SELF)", options))
        #expect(grouped.status == 422 && grouped.parameter == "groupBy")
        let aggregate = try #require(problem("groupBy=year&select=year,s%3Dsum:(secret)", options))
        #expect(aggregate.status == 422 && aggregate.parameter == "select" && aggregate.caret == "            ^~~~~~")
        // having reads the expressions by name and $name.
        #expect(problem("groupBy=year&select=year,n%3Dcount:(SELF)&having=n+%3E+1+AND+%24n+%3C+9+AND+year+%3E+1", options) == nil)
        #expect(problem("filter=year+%3E+1&sort=title", options) == nil)
        // A grouped fetch sorts by its expressions' names.
        #expect(problem("groupBy=year&select=year,n%3Dcount:(SELF)&sort=n+DESC", options) == nil)
        #expect(problem("groupBy=year&select=year,n%3Dcount:(SELF)&sort=secret", options)?.type == "urn:sift:problem:grouping")
        // A variable's value is a constant: allowed where variables are not.
        #expect(problem("filter=year+%3E+%24y&var.y=1", options) == nil)
    }

    @Test func aCostlyFilterIsRefusedBeforeItRuns() throws {
        let options = RequestFetchOptions(maximumCost: 100_000, maximumRecordSize: 10_000)
        let quadratic = try #require(problem("filter=ANY+tags+IN+others", options))
        #expect(quadratic.status == 422 && quadratic.type == "urn:sift:problem:cost")
        #expect(problem("filter=year+%3E+1", options) == nil)
    }

    @Test func theDocumentIsRFC9457JSON() throws {
        let p = try #require(problem("filter=year+%3E"))
        guard case .object(let o) = p.json else { Issue.record("not an object"); return }
        #expect(o.keys == ["type", "title", "status", "detail", "parameter", "value", "column", "caret"])
        #expect(o["status"] == .int(400))
        #expect(RequestProblem.mediaType == "application/problem+json")
        let decoded = try JSONDecoder().decode(RequestProblem.self, from: JSONEncoder().encode(p))
        #expect(decoded == p)
    }
}
