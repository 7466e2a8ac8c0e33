import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// Key paths built from pieces (Apple's `expression "." expression`): `%K`
/// after a dot is bound into plain keys while parsing, and `$NAME` after a
/// dot (``ExpressionNode/Kind/variableKey(_:key:)``) becomes plain keys once
/// substituted, or takes its value at evaluation.
struct KeyPathPieceTests {
    /// The format strings of shipping apps, with their arguments, and the
    /// same predicate spelled plainly.
    static var appForms: [(format: String, arguments: [any FormatArgumentConvertible], plain: String)] { [
        ("%K.%K == %@", ["teamRaw", "keyRaw", "frc7332"], #"teamRaw.keyRaw == "frc7332""#),
        ("%K.%K == %@", ["recipientsRaw", "teamRaw.keyRaw", "frc7332"], #"recipientsRaw.teamRaw.keyRaw == "frc7332""#),
        ("ANY %K.%K == %@", ["recipientsRaw", "teamRaw.keyRaw", "frc7332"], #"ANY recipientsRaw.teamRaw.keyRaw == "frc7332""#),
        ("ANY %K.%K = %@", ["districtsRaw", "keyRaw", "2018fim"], #"ANY districtsRaw.keyRaw == "2018fim""#),
        ("SUBQUERY(%K, $t, $t.%K == %@).@count > 0", ["teamsRaw", "keyRaw", "frc1"], #"SUBQUERY(teamsRaw, $t, $t.keyRaw == "frc1").@count > 0"#),
        (
            "SUBQUERY(%K, $a, ANY $a.%K.%K IN %@).@count > 0", ["alliancesRaw", "teamsRaw", "keyRaw", ["frc1", "frc2"]],
            #"SUBQUERY(alliancesRaw, $a, ANY $a.teamsRaw.keyRaw IN {"frc1", "frc2"}).@count > 0"#
        ),
        ("tags[0].%K == 1", ["a.b"], "tags[0].a.b == 1"),
        ("%K.%K.@count == 2", ["a", "b"], "a.b.@count == 2"),
        ("%K.%K == 1", ["a", "IN"], "a.#IN == 1"),
    ] }

    static let teamObject: Value = [
        "teamRaw": ["keyRaw": "frc7332"],
        "recipientsRaw": [["teamRaw": ["keyRaw": "frc7332"]], ["teamRaw": ["keyRaw": "frc1"]]],
        "districtsRaw": [["keyRaw": "2018fim"]],
        "teamsRaw": [["keyRaw": "frc1"]],
        "alliancesRaw": [["teamsRaw": [["keyRaw": "frc2"]]]],
        "tags": [["a": ["b": 1]]],
        "a": ["b": [1, 2], "IN": 1],
    ]

    @Test func appFormsAreThePlainKeyPath() throws {
        for form in Self.appForms {
            let bound = try Filter(form.format, arguments: form.arguments)
            let plain = try Filter(form.plain)
            #expect(bound == plain, "\(form.format)")
            #expect(bound.format == form.plain)
            #expect(try Filter(bound.format) == bound)
            #expect(try bound.evaluate(with: Self.teamObject) == plain.evaluate(with: Self.teamObject))
            if form.format.hasPrefix("ANY") || form.format.hasPrefix("SUBQUERY") {
                #expect(try bound.evaluate(with: Self.teamObject), "\(form.format)")
            }
        }
        #expect(
            try Filter("ANY %K.%K == %@", "recipientsRaw", "teamRaw.keyRaw", "frc7332").format
                == #"ANY recipientsRaw.teamRaw.keyRaw == "frc7332""#)
        // After a constant, as `%@.x.y`.
        let dictionary: Value = ["x": ["y": 1]]
        #expect(try Filter("%@.%K == 1", dictionary, "x.y") == Filter("%@.x.y == 1", dictionary))
        #expect(try Filter("%@.%K == 1", dictionary, "x.y").evaluate(with: Value.null))
    }

    /// A `%K` after a dot takes what `%K` takes anywhere: a key path
    /// string; anything else is an argument error at the specifier.
    @Test func keySpecifierAfterADotNeedsAKeyPath() throws {
        let cases: [(any FormatArgumentConvertible, String)] = [
            (5, "got a value of type integer"), ("", "an empty string"), ("b..c", "has an empty key"),
            (".b", "has an empty key"), ("b.", "has an empty key"), (Value.null, "got nil"),
        ]
        for (argument, message) in cases {
            let error = parseError("a.%K == 1", [argument])
            #expect(error?.code == .argument)
            #expect(error?.range == SourceRange(2, 4))
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
        // The same rule for a %K that starts the path.
        #expect(parseError("%K == 1", ["b..c"])?.code == .argument)
        #expect(parseError("a.%K == 1", [])?.code == .argument)
        // Only %K names a key: the other specifiers insert values.
        let value = parseError("a.%@ == 1", ["b"])
        #expect(value?.code == .syntax)
        #expect(value?.range == SourceRange(2, 4))
        #expect(parseError("a.%d == 1", [1])?.code == .syntax)
        // A key path expression is accepted as it is for %K anywhere.
        #expect(try Filter("a.%K == 1", ExpressionNode.keyPath("b.c")) == Filter("a.b.c == 1"))
    }

    /// 1,000 random key paths split at random dots into `%K` pieces (and
    /// into `$VARIABLE` pieces, substituted) give the plain key path's tree.
    @Test func randomSplitsGiveThePlainTree() throws {
        var rng = SeededRandom(seed: 7)
        let pool = ["name", "keyRaw", "a", "b_2", "IN", "size", "first", "AND", "@count", "@sum", "@avg", "@max"]
        for _ in 0..<1000 {
            let length = 1 + Int(rng.next() % 6)
            var keys: [String] = []
            for i in 0..<length {
                var key = pool[Int(rng.next() % UInt64(pool.count))]
                if i == 0 && key.hasPrefix("@") { key = "k\(rng.next() % 100)" }
                keys.append(key)
            }
            let plain = keys.map { Lexer.isReserved($0) ? "#" + $0 : $0 }.joined(separator: ".") + " == 1"
            // Pieces: consecutive keys joined at the dots not cut.
            var pieces: [String] = [keys[0]]
            for key in keys.dropFirst() {
                if rng.next() % 2 == 0 { pieces[pieces.count - 1] += "." + key } else { pieces.append(key) }
            }
            let expected = try Filter(plain)
            let byKeys = try Filter(
                pieces.map { _ in "%K" }.joined(separator: ".") + " == 1", arguments: pieces)
            #expect(byKeys == expected, "\(pieces)")
            #expect(byKeys.format == expected.format)
            // The pieces after the first as variables.
            let template = try Filter(
                "%K" + pieces.indices.dropFirst().map { ".$v\($0)" }.joined() + " == 1", pieces[0])
            var values: [String: any ValueConvertible] = [:]
            for i in pieces.indices.dropFirst() { values["v\(i)"] = pieces[i] }
            let substituted = try template.substituting(values)
            #expect(substituted == expected, "\(pieces)")
            #expect(try Filter(template.format) == template)
        }
    }

    /// `%K` pieces are keys of one path: they nest nothing, however many.
    @Test func manyKeySpecifierPieces() throws {
        let pieces = Array(repeating: "k", count: 10_000)
        let long = try Filter(pieces.map { _ in "%K" }.joined(separator: ".") + " == 1", arguments: pieces)
        #expect(long == (try Filter(pieces.joined(separator: ".") + " == 1")))
    }

    // MARK: - $VARIABLE after a dot

    @Test func variablePieceTree() throws {
        let a = ExpressionNode.variable("a")
        let b = ExpressionNode.variable("b")
        let parsed = try Filter("$a.$b == 'ABC'").predicate
        #expect(parsed == .compare(ExpressionNode(.variableKey(a, key: b)), .equalTo, .constant("ABC")))
        // The key keeps its own range, for errors about it.
        guard case .comparison(let c) = parsed.kind, case .variableKey(_, let key) = c.lhs.kind else {
            Issue.record("not a variable key")
            return
        }
        #expect(key.range == SourceRange(3, 5))
        #expect(c.lhs.range == SourceRange(0, 5))
        // Keys around it: `a.b.$c.d` is the path `.d` of `a.b` keyed by $c.
        #expect(
            try Filter("a.b.$c.d == 1").predicate
                == .compare(
                    ExpressionNode(.path(ExpressionNode(.variableKey(.keyPath("a.b"), key: .variable("c"))), ["d"])),
                    .equalTo, .constant(1)))
        #expect(try Filter("$a.$b == 'ABC'").variableNames == ["a", "b"])
    }

    static let printed = [
        "$a.$b == \"ABC\"", "a.$b == 1", "a.b.$c.d == 1", "SELF.$b == 1", "$a.$b.$c == 1", "a.$b[0].c == 1",
        "a.$b.@count == 1", "SUBQUERY(items, $t, $t.$k == 1).@count > 0", "ANY a.$b.c IN {1, 2}",
        "a.$#IN == 1", "FUNCTION(a, \"x\").$b == 1", "(a + 1).$b == 1", "{a, b}.$c == 1",
    ]

    @Test(arguments: printed)
    func variablePiecePrintsAndReadsBack(format: String) throws {
        let filter = try Filter(format)
        #expect(filter.format == format)
        #expect(try Filter(filter.format) == filter)
        let json = try JSONEncoder().encode(filter.predicate)
        #expect(try JSONDecoder().decode(PredicateNode.self, from: json) == filter.predicate)
    }

    @Test func decodingRefusesAKeyThatIsNotAVariable() throws {
        let json = try JSONEncoder().encode(ExpressionNode(.variableKey(.keyPath("a"), key: .variable("b"))))
        let text = String(decoding: json, as: UTF8.self)
        let wrong = text.replacingOccurrences(of: #"{"variable":{"_0":"b"}}"#, with: #"{"keyPath":{"_0":["b"]}}"#)
        #expect(wrong != text)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExpressionNode.self, from: Data(wrong.utf8)) }
        let empty = text.replacingOccurrences(of: #"{"_0":"b"}"#, with: #"{"_0":""}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExpressionNode.self, from: Data(empty.utf8)) }
    }

    static let dictionary: Value = ["a": "ABC", "n": ["m": 2]]

    /// Observed on iOS: `$a.$b == 'ABC'` with `$a` a dictionary and `$b`
    /// its key is true, whether substituted first or given at evaluation.
    @Test func variablePieceSubstitutes() throws {
        let template = try Filter("$a.$b == 'ABC'")
        let bound = try template.substituting(["a": Self.dictionary, "b": "a"])
        #expect(bound == (try Filter("%@.a == 'ABC'", Self.dictionary)))
        #expect(try bound.evaluate(with: Value.null))
        #expect(try template.evaluate(with: Value.null, variables: ["a": Self.dictionary, "b": "a"]))
        #expect(try !template.evaluate(with: Value.null, variables: ["a": Self.dictionary, "b": "n"]))
        // A string with dots is several keys, and keys around the piece join them.
        let path = try Filter("a.$b.c == 1").substituting(["b": "x.y"])
        #expect(path == (try Filter("a.x.y.c == 1")))
        #expect(path.format == "a.x.y.c == 1")
        #expect(try Filter("SELF.$b == 1").substituting(["b": "name"]) == (try Filter("name == 1")))
        #expect(try Filter("$a.$b.m == 2").substituting(["a": Self.dictionary, "b": "n"]).evaluate(with: Value.null))
        #expect(try Filter("x.$b.@count == 2").substituting(["b": "y"]) == (try Filter("x.y.@count == 2")))
        // Only the variables given are substituted when unbound ones are allowed.
        let partly = try Filter("a.$b.$c == 1").substituting(["c": "d"], allowingUnbound: true)
        #expect(partly == (try Filter("a.$b.d == 1")))
    }

    @Test func variablePieceSubstitutionErrors() throws {
        let filter = try Filter("a.$b == 1")
        for (value, message) in [
            (Value.int(3), "not an integer"), (.string(""), "an empty string"), (.string("x..y"), "has an empty key"),
            (.null, "not nil"), (.array(["x"]), "not an array"),
        ] {
            #expect {
                try filter.substituting(["b": value])
            } throws: { error in
                guard let error = error as? ParseError else { return false }
                return error.code == .argument && error.range == SourceRange(2, 4) && error.message.contains("$b")
                    && error.message.contains(message)
            }
        }
        #expect {
            try filter.substituting([:])
        } throws: { error in
            (error as? ParseError)?.code == .unboundVariable && (error as? ParseError)?.range == SourceRange(2, 4)
        }
    }

    /// A SUBQUERY's variable after a dot names, for each element, the key
    /// that element holds; substitution leaves it alone.
    @Test func subqueryVariableAsAKey() throws {
        let filter = try Filter("SUBQUERY(names, $k, SELF.$k == 1).@count == 1")
        #expect(try filter.substituting(["k": "zzz"]) == filter)
        #expect(filter.variableNames.isEmpty)
        #expect(try filter.evaluate(with: ["names": ["x", "y"], "x": 1, "y": 2] as Value))
        #expect(try !filter.evaluate(with: ["names": ["x", "y"], "x": 1, "y": 1] as Value))
        #expect(throws: EvaluationError.self) { try filter.evaluate(with: ["names": [1], "x": 1] as Value) }
    }

    @Test func variablePieceEvaluationErrors() throws {
        let filter = try Filter("$a.$b == 'ABC'")
        #expect {
            try filter.evaluate(with: Value.null, variables: ["a": Self.dictionary])
        } throws: { error in
            (error as? EvaluationError)?.code == .unboundVariable && (error as? EvaluationError)?.range == SourceRange(3, 5)
        }
        // Apple raises for a key that is not a string (HelloProjects: `$a.$b` with b = 0).
        for value in [Value.int(0), .string(""), .string("a.")] {
            #expect {
                try filter.evaluate(with: Value.null, variables: ["a": Self.dictionary, "b": value])
            } throws: { error in
                (error as? EvaluationError)?.code == .typeMismatch && (error as? EvaluationError)?.range == SourceRange(3, 5)
            }
        }
        // A key path on an array applies to each element, as written.
        #expect(
            try Filter("$a.$b == {1, 2}").evaluate(with: Value.null, variables: ["a": [["x": 1], ["x": 2]], "b": "x"]))
    }

    /// The typed, table and in-place paths take the general path for a
    /// variable piece, and answer as the plain key path does.
    @Test func fastPathsAgree() throws {
        let books = [
            Book(title: "It", year: 1986, authors: [Author(name: "Stephen King", born: 1947)], tags: ["horror"]),
            Book(title: "Dune", year: 1965, authors: [Author(name: "Frank Herbert", born: 1920)], tags: []),
        ]
        let piece = try Filter("year > 1970 AND SELF.$k == 'It'")
        let plain = try Filter("year > 1970 AND title == 'It'")
        let typed = piece.compiled(for: Book.self)
        for book in books {
            #expect(try typed.evaluate(with: book, variables: ["k": "title"]) == plain.compiled(for: Book.self).evaluate(with: book))
        }
        #expect(try books.filter(piece.substituting(["k": "title"]).compiled(for: Book.self)).map(\.title) == ["It"])

        let rows = InPlaceReaderTests.members.map(InPlaceReaderTests.dynamicValue)
        let table = ValueTable(rows)
        let mentor = try Filter("age > 30 AND mentor.$k == 'Ann'")
        let mentorPlain = try Filter("age > 30 AND mentor.name == 'Ann'")
        let substituted = try mentor.substituting(["k": "name"])
        #expect(substituted == mentorPlain)
        let expected = try rows.filter { try mentorPlain.evaluate(with: $0) }.count
        #expect(expected > 0)
        #expect(try table.count(where: substituted) == expected)
        #expect(try rows.filter { try mentor.evaluate(with: $0, variables: ["k": "name"]) }.count == expected)

        let members = InPlaceReaderTests.members
        let inPlace = mentor.compiled(for: StoredMember.self)
        let inPlacePlain = mentorPlain.compiled(for: StoredMember.self)
        var matches = 0
        for m in members {
            let answer = try inPlace.evaluate(with: m, variables: ["k": "name"])
            #expect(try answer == inPlacePlain.evaluate(with: m))
            if answer { matches += 1 }
        }
        #expect(matches > 0)
    }

    /// Each variable piece nests the tree a level (and keys after one a
    /// level more), so a long chain is the parser's depth limit, not a
    /// stack overflow in the code that walks the tree.
    @Test func variablePiecesCountAsLevels() throws {
        for piece in [".$b", ".$b.c"] {
            #expect {
                try Filter("a" + String(repeating: piece, count: 1000) + " == 1")
            } throws: { error in
                (error as? ParseError)?.code == .limit
            }
        }
        let depth = ParseOptions.default.maximumDepth
        #expect(throws: Never.self) { try Filter("a" + String(repeating: ".$b", count: depth - 1) + " == 1") }
    }

    @Test func treeDumpShowsTheVariable() throws {
        let dump = TreeDump.dump(try Filter("a.$b == 1").predicate)
        #expect(dump.contains("key from a variable  @0..<4"))
        #expect(dump.contains("keyPath a  @0..<1"))
        #expect(dump.contains("variable $b  @2..<4"))
    }

    // MARK: - Policy

    static let policies: [PredicatePolicy] = [
        .unrestricted,
        PredicatePolicy(keyPaths: ["teamRaw.keyRaw"]),
        PredicatePolicy(keyPaths: ["teamRaw"]),
        PredicatePolicy(keyPaths: ["recipientsRaw.teamRaw.keyRaw", "teamsRaw.*", "alliancesRaw.teamsRaw.keyRaw"]),
        PredicatePolicy(keyPaths: ["recipientsRaw.teamRaw"]),
        .untrusted(keyPaths: ["recipientsRaw.*", "alliancesRaw.*"]),
        PredicatePolicy(allowsSubqueries: false, allowsCollectionOperators: false),
    ]

    private func verdict(_ policy: PredicatePolicy, _ filter: Filter) -> PolicyViolation.Part? {
        do {
            try policy.check(filter)
            return nil
        } catch {
            return error.part
        }
    }

    /// `%K` pieces, and variable pieces once substituted, are checked as
    /// the plain key path is.
    @Test func policyVerdictsAreThePlainKeyPaths() throws {
        var refused = 0
        for form in Self.appForms {
            let bound = try Filter(form.format, arguments: form.arguments)
            let plain = try Filter(form.plain)
            for policy in Self.policies {
                let v = verdict(policy, bound)
                #expect(v == verdict(policy, plain), "\(form.format)")
                if v != nil { refused += 1 }
            }
        }
        #expect(refused > 0)
        let substituted = try Filter("ANY recipientsRaw.$k == 'x'").substituting(["k": "teamRaw.keyRaw"])
        for policy in Self.policies {
            #expect(verdict(policy, substituted) == verdict(policy, try Filter("ANY recipientsRaw.teamRaw.keyRaw == 'x'")))
        }
    }

    /// An unsubstituted variable piece may name any key (or a collection
    /// operator) of its base, so everything inside the base must be allowed.
    @Test func policyRefusesAnUnknownKeyUnlessEverythingIsAllowed() throws {
        let filter = try Filter("teamRaw.$k == 'x'")
        #expect(verdict(PredicatePolicy(keyPaths: ["teamRaw.keyRaw"]), filter) == .keyPath("teamRaw"))
        #expect(verdict(PredicatePolicy(keyPaths: ["teamRaw"]), filter) == nil)
        #expect(verdict(PredicatePolicy(keyPaths: ["teamRaw.*"]), filter) == nil)
        #expect(verdict(PredicatePolicy(keyPaths: ["other"]), filter) == .keyPath("teamRaw"))
        #expect(verdict(PredicatePolicy(keyPaths: ["teamRaw"], allowsVariables: false), filter) == .variable("k"))
        #expect(
            verdict(PredicatePolicy(keyPaths: ["teamRaw"], allowsCollectionOperators: false), filter)
                == .collectionOperator("$k"))
        #expect(verdict(.untrusted(keyPaths: ["teamRaw.*"]), filter) == .variable("k"))
        // A key read from the object (a SUBQUERY variable) is a value used
        // as a key: it must be allowed whole, and so must the base.
        let keyed = try Filter("SUBQUERY(names, $k, teamRaw.$k == 1).@count > 0")
        #expect(verdict(PredicatePolicy(keyPaths: ["names", "teamRaw"]), keyed) == nil)
        #expect(verdict(PredicatePolicy(keyPaths: ["names.first", "teamRaw"]), keyed) == .keyPath("names"))
        #expect(verdict(PredicatePolicy(keyPaths: ["names", "teamRaw.keyRaw"]), keyed) == .keyPath("teamRaw"))
        // What the value read through the piece is used for is checked too.
        let read = try Filter("teamRaw.$k.name == 1")
        #expect(verdict(PredicatePolicy(keyPaths: ["teamRaw"]), read) == nil)
        #expect {
            try PredicatePolicy(keyPaths: ["teamRaw.keyRaw"]).check(filter)
        } throws: { error in
            (error as? PolicyViolation)?.range == SourceRange(0, 7)
        }
    }

    private func parseError(_ format: String, _ arguments: [any FormatArgumentConvertible]) -> ParseError? {
        do {
            _ = try Filter(format, arguments: arguments)
            return nil
        } catch {
            return error
        }
    }
}
