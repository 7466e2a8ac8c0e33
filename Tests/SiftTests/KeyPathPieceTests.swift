import Foundation
import Testing

@testable import Sift

/// Key paths built from pieces (Apple's `expression "." expression`): `%K`
/// after a dot is bound into plain keys while parsing.
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

    /// 1,000 random key paths split at random dots into `%K` pieces give
    /// the plain key path's tree.
    @Test func randomSplitsGiveThePlainTree() throws {
        var rng = SplitMix(seed: 7)
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
        }
    }

    /// `%K` pieces are keys of one path: they nest nothing, however many.
    @Test func manyKeySpecifierPieces() throws {
        let pieces = Array(repeating: "k", count: 10_000)
        let long = try Filter(pieces.map { _ in "%K" }.joined(separator: ".") + " == 1", arguments: pieces)
        #expect(long == (try Filter(pieces.joined(separator: ".") + " == 1")))
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

    /// `%K` pieces are checked as the plain key path is.
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
