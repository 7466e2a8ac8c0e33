import Testing

@testable import Sift

/// Allow-lists for predicates from untrusted sources.
struct PolicyTests {
    static let policy = PredicatePolicy.untrusted(keyPaths: ["title", "year", "author.name", "tags.*"])

    func violation(_ format: String, _ policy: PredicatePolicy = policy, _ arguments: [any FormatArgumentConvertible] = [])
        throws -> PolicyViolation?
    {
        let filter = try Filter(format, arguments: arguments)
        do {
            try policy.check(filter)
            return nil
        } catch {
            return error
        }
    }

    @Test func allowedPredicatesPass() throws {
        for format in [
            "title BEGINSWITH[c] 'a' AND year > 1980",
            "author.name IN {'Ann', 'Bob'} OR year BETWEEN {1, 2}",
            "ANY tags.name == 'x' AND tags.@count > 2",
            "tags.name.@count > 1 AND year + 1 > 2000 AND lowercase(title) == 'x'",
            "TRUEPREDICATE",
        ] {
            #expect(try violation(format) == nil, "\(format)")
        }
        // %K becomes a key path and is checked like one.
        #expect(try violation("%K == 1", Self.policy, ["year"]) == nil)
        // The unrestricted policy allows everything.
        let everything = "SUBQUERY(tags, $t, $t.name MATCHES 'a.*').@count > 0 AND FUNCTION(title, 'length') > $N"
        #expect(try violation(everything, .unrestricted) == nil)
    }

    @Test func refusedPartsAreNamedAndPointedAt() throws {
        let secret = try #require(try violation("year > 1 AND secret == 'x'"))
        #expect(secret.part == .keyPath("secret"))
        #expect(secret.message == "the key path secret is not allowed")
        #expect(secret.rendered().contains("             ^~~~~~"))

        #expect(try violation("author.password == 'x'")?.part == .keyPath("author.password"))
        #expect(try violation("author == nil")?.part == .keyPath("author"))
        #expect(try violation("%K == 1", Self.policy, ["passwordHash"])?.part == .keyPath("passwordHash"))
        #expect(try violation("SELF == nil")?.part == .keyPath("SELF"))
        #expect(try violation("title MATCHES '(a+)+$'")?.part == .operator(.matches))
        #expect(try violation("FUNCTION(title, 'uppercaseString') == 'A'")?.part == .invocation("uppercaseString"))
        #expect(try violation("SUBQUERY(tags, $t, $t.name == 'x').@count > 0")?.part == .subquery)
        #expect(try violation("year > $MIN")?.part == .variable("MIN"))
        #expect(try violation("CAST(year, 'NSString') == '1'")?.part == .cast)
        #expect(try violation("random() > 0.5")?.part == .function("random"))
        #expect(try violation("year << 2 > 8")?.part == .function("leftshift:by:"))
        let big = (0...64).map { "year == \($0)" }.joined(separator: " OR ")
        #expect(try violation(big)?.part == .size(64))
        let noOperators = PredicatePolicy(allowsCollectionOperators: false)
        #expect(try violation("tags.@count > 1", noOperators)?.part == .collectionOperator("@count"))
    }

    @Test func subqueryVariablesReadTheirCollectionsPaths() throws {
        var policy = Self.policy
        policy.allowsSubqueries = true
        #expect(try violation("SUBQUERY(tags, $t, $t.name == 'x').@count > 0", policy) == nil)
        let narrow = PredicatePolicy(keyPaths: ["tags", "tags.name"])
        #expect(try violation("SUBQUERY(tags, $t, $t.name == 'x' AND $t.owner.secret == 1).@count > 0", narrow)?.part
            == .keyPath("tags.owner.secret"))
        // Unbound $VARIABLES outside the subquery are still variables.
        #expect(try violation("SUBQUERY(tags, $t, $t.name == $X).@count > 0", PredicatePolicy(allowsVariables: false))?
            .part == .variable("X"))
    }

    @Test func sortKeys() throws {
        try Self.policy.check(try SortKey.parse("year DESC, author.name caseInsensitive, tags.name"))
        let keys = try SortKey.parse("year DESC, salary ASC")
        do throws(PolicyViolation) {
            try Self.policy.check(keys)
            Issue.record("salary was allowed")
        } catch {
            #expect(error.part == .keyPath("salary"))
            #expect(error.rendered().contains("^~~~~~"))
        }
    }

    @Test func checkedReturnsTheFilter() throws {
        let filter = try Filter("year > 1").checked(by: Self.policy)
        #expect(filter.format == "year > 1")
        #expect(throws: PolicyViolation.self) { try Filter("secret > 1").checked(by: Self.policy) }
    }
}
