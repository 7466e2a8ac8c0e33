import Foundation
import Sift
import Testing
import struct SiftTestSupport.SeededRandom

/// `Filter(Predicate)`, `SortKey(SortDescriptor)` and the fetch built from
/// them: each converted predicate answers as `predicate.evaluate` does, on
/// generated objects with nils, empty collections, decomposed and non-ASCII
/// strings and edge numbers, typed and on values.
@Suite struct SwiftPredicateTests {
    struct Person: KeyValueReadable, Hashable {
        var name: String
        var age: Int

        static let keyTable = KeyTable<Person>(typed: [
            "name": .string(\.name),
            "age": .int(\.age),
        ])
    }

    /// A raw-value enum with an order of its own (not its raw values').
    enum Level: String, Codable, Comparable, Hashable {
        case low = "z", high = "a"
        static func < (a: Level, b: Level) -> Bool { a == .low && b == .high }
    }

    struct Item: KeyValueReadable, Hashable {
        var title: String
        var year: Int
        var price: Double
        var rating: Int?
        var note: String?
        var active: Bool
        var tags: [String]
        var scores: [Int]
        var owner: Person
        var editor: Person?
        var people: [Person]
        var stamp: Date
        var extra: [String: Int] = [:]
        var weight: Float = 0.1
        var level: Level = .low
        var serial: UInt64 = 0
        var initial: Character = "e"
        var codes: [Int: Int] = [:]
        var maybes: [String: Int?] = [:]

        static let keyTable = KeyTable<Item>(typed: [
            "title": .string(\.title),
            "year": .int(\.year),
            "price": .double(\.price),
            "rating": .value { $0.rating.predicateValue }.reads(\.rating),
            "note": .value { $0.note.predicateValue }.reads(\.note),
            "active": .bool(\.active),
            "tags": .strings(\.tags),
            "scores": .value { $0.scores.predicateValue }.reads(\.scores),
            "owner": .object(\.owner),
            "editor": .value { $0.editor.predicateValue }.reads(\.editor),
            "people": .objects(\.people),
            "stamp": .value { $0.stamp.predicateValue }.reads(\.stamp),
            "extra": .value { $0.extra.predicateValue }.reads(\.extra),
            "weight": .double { Double($0.weight) }.reads(\.weight),
            "level": .value { .string($0.level.rawValue) }.reads(\.level),
            "serial": .value { $0.serial.predicateValue }.reads(\.serial),
            "initial": .value { .string(String($0.initial)) }.reads(\.initial),
        ])
    }

    static let texts = ["Ann", "ann", "café", "cafe\u{301}", "Kelvin", "\u{212A}elvin", "", "b", "Zoë", "x;y", "x\u{37E}y"]

    static func items(count: Int, seed: UInt64) -> [Item] {
        var rng = SeededRandom(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func chance(_ n: UInt64) -> Bool { rng.next() % n == 0 }
        let doubles: [Double] = [.nan, 0, -0.0, 1.5, -2.25, 1e300, -1e300, .infinity, 3, 0.1 + 0.2]
        return (0..<count).map { _ in
            let people = (0..<Int(rng.next() % 3)).map { _ in Person(name: pick(texts), age: Int(rng.next() % 90)) }
            return Item(
                title: pick(texts), year: Int(rng.next() % 60) + 1970 - (chance(9) ? 4000 : 0),
                price: pick(doubles), rating: chance(4) ? nil : Int(rng.next() % 5),
                note: chance(3) ? nil : pick(texts), active: chance(2),
                tags: (0..<Int(rng.next() % 3)).map { _ in pick(texts) },
                scores: (0..<Int(rng.next() % 4)).map { _ in Int(rng.next() % 10) - 3 },
                owner: Person(name: pick(texts), age: Int(rng.next() % 90)),
                editor: chance(3) ? nil : Person(name: pick(texts), age: Int(rng.next() % 90)),
                people: people,
                stamp: Date(timeIntervalSinceReferenceDate: Double(rng.next() % 1000) - 500),
                extra: Dictionary((0..<Int(rng.next() % 3)).map { _ in (pick(["a", "b", "caf\u{E9}", "cafe\u{301}"]), Int(rng.next() % 3)) },
                                  uniquingKeysWith: { a, _ in a }),
                weight: Float(pick(doubles)), initial: pick(["e", "\u{E9}", "e\u{301}", "a", "\r\n"]))
        }
    }

    static let when = Date(timeIntervalSinceReferenceDate: 0)
    static let low = -3
    static let empty = ""
    static let ratings: [Int?] = [nil, 3]

    /// Predicates that convert, with the format string each prints.
    static let converted: [(Predicate<Item>, String)] = [
        (#Predicate<Item> { $0.year > 1990 }, "year > 1990"),
        (#Predicate<Item> { $0.year >= 1990 && $0.price < 2 }, "year >= 1990 AND price < 2.0"),
        (#Predicate<Item> { $0.year <= 1980 || !$0.active }, "year <= 1980 OR (NOT active == 1)"),
        (#Predicate<Item> { $0.title == "Ann" }, "title == \"Ann\""),
        (#Predicate<Item> { $0.title != "ann" }, "title != \"ann\""),
        (#Predicate<Item> { $0.title == "café" }, "title ==[s] \"café\""),
        (#Predicate<Item> { $0.title == "Kelvin" }, "title ==[s] \"Kelvin\""),
        (#Predicate<Item> { $0.title != "x;y" }, "title !=[s] \"x;y\""),
        (#Predicate<Item> { $0.title == $0.owner.name }, "title ==[s] owner.name"),
        (#Predicate<Item> { $0.editor?.name != $0.note }, "editor.name !=[s] note"),
        (#Predicate<Item> { $0.title.contains("af") }, "title CONTAINS[s] \"af\""),
        (#Predicate<Item> { $0.title.contains("e") }, "title CONTAINS[s] \"e\""),
        (#Predicate<Item> { $0.title.contains(empty) }, "title CONTAINS[s] \"\""),
        (#Predicate<Item> { $0.title.contains($0.owner.name) }, "title CONTAINS[s] owner.name"),
        (#Predicate<Item> { $0.title.starts(with: "c") }, "title BEGINSWITH[s] \"c\""),
        (#Predicate<Item> { $0.title.starts(with: $0.owner.name) }, "title BEGINSWITH[s] owner.name"),
        (#Predicate<Item> { $0.title < "b" }, "title <[s] \"b\""),
        (#Predicate<Item> { $0.title >= "f" }, "title >=[s] \"f\""),
        (#Predicate<Item> { $0.title > $0.owner.name }, "title >[s] owner.name"),
        (#Predicate<Item> { ("a"..."c").contains($0.title) }, "title >=[s] \"a\" AND title <=[s] \"c\""),
        (#Predicate<Item> { $0.tags.contains("café") }, "\"café\" IN[s] tags"),
        (#Predicate<Item> { $0.tags.contains($0.title) }, "title IN[s] tags"),
        (#Predicate<Item> { $0.title.contains($0.initial) }, "initial IN[s] title"),
        (#Predicate<Item> { $0.weight < 0.5 }, "weight < 0.5"),
        (#Predicate<Item> { $0.note == nil }, "note == nil"),
        (#Predicate<Item> { $0.note != nil }, "note != nil"),
        (#Predicate<Item> { $0.note == "b" }, "note == \"b\""),
        (#Predicate<Item> { $0.note != "b" }, "note != \"b\""),
        (#Predicate<Item> { $0.rating == 3 }, "rating == 3"),
        (#Predicate<Item> { $0.rating != 3 }, "rating != 3"),
        (#Predicate<Item> { ($0.rating ?? 0) > 2 }, "TERNARY(rating != nil, rating, 0) > 2"),
        (#Predicate<Item> { $0.owner.age > 40 }, "owner.age > 40"),
        (#Predicate<Item> { $0.owner.name == "b" }, "owner.name == \"b\""),
        (#Predicate<Item> { $0.editor?.age == 30 }, "editor.age == 30"),
        (#Predicate<Item> { $0.editor?.name == "Ann" }, "editor.name == \"Ann\""),
        (#Predicate<Item> { $0.editor?.name != "Ann" }, "editor.name != \"Ann\""),
        (#Predicate<Item> { ($0.editor?.age ?? -1) < 10 }, "TERNARY(editor.age != nil, editor.age, -1) < 10"),
        (#Predicate<Item> { $0.tags.contains("b") }, "\"b\" IN tags"),
        (#Predicate<Item> { $0.scores.contains(2) }, "2 IN scores"),
        (#Predicate<Item> { [1990, 1995, 2000].contains($0.year) }, "year IN {1990, 1995, 2000}"),
        (#Predicate<Item> { ["Ann", "b"].contains($0.title) }, "title IN {\"Ann\", \"b\"}"),
        // Swift finds nil among optionals; NSPredicate's IN never does.
        (#Predicate<Item> { ratings.contains($0.rating) }, "rating IN {3} OR rating == nil"),
        (#Predicate<Item> { $0.tags.isEmpty }, "tags.@count == 0"),
        (#Predicate<Item> { !$0.people.isEmpty }, "NOT people.@count == 0"),
        (#Predicate<Item> { $0.scores.count >= 2 }, "scores.@count >= 2"),
        (#Predicate<Item> { $0.scores.first == 1 }, "scores[FIRST] == 1"),
        (#Predicate<Item> { $0.scores.last == 1 }, "scores[LAST] == 1"),
        (#Predicate<Item> { $0.scores.contains { $0 > 4 } }, "SUBQUERY(scores, $x, $x > 4).@count > 0"),
        (#Predicate<Item> { $0.scores.allSatisfy { $0 >= 0 } }, "SUBQUERY(scores, $x, NOT $x >= 0).@count == 0"),
        (#Predicate<Item> { $0.people.contains { $0.age > 50 } }, "SUBQUERY(people, $x, $x.age > 50).@count > 0"),
        (#Predicate<Item> { $0.people.filter { $0.age > 20 }.count == 1 }, "SUBQUERY(people, $x, $x.age > 20).@count == 1"),
        (#Predicate<Item> { $0.people.contains { p in p.name == "Ann" && p.age > 3 } },
         "SUBQUERY(people, $x, $x.name == \"Ann\" AND $x.age > 3).@count > 0"),
        (#Predicate<Item> { $0.scores.max() == 6 }, "scores.@max.self == 6"),
        (#Predicate<Item> { $0.scores.min() == low }, "scores.@min.self == -3"),
        (#Predicate<Item> { $0.year + 10 > 2000 }, "year + 10 > 2000"),
        (#Predicate<Item> { $0.year - $0.owner.age * 2 < 1900 }, "year - (owner.age * 2) < 1900"),
        (#Predicate<Item> { $0.price / 2 > 0.5 }, "price / 2.0 > 0.5"),
        (#Predicate<Item> { -$0.price > 1 }, "price * -1 > 1.0"),
        (#Predicate<Item> { (1980...1990).contains($0.year) }, "year >= 1980 AND year <= 1990"),
        (#Predicate<Item> { (1980..<1990).contains($0.year) }, "year >= 1980 AND year < 1990"),
        (#Predicate<Item> { $0.active ? $0.year > 2000 : $0.year < 1980 },
         "(active == 1 AND year > 2000) OR ((NOT active == 1) AND year < 1980)"),
        (#Predicate<Item> { ($0.active ? $0.year : 0) > 1000 }, "TERNARY(active == 1, year, 0) > 1000"),
        (#Predicate<Item> { $0.stamp > when }, "stamp > CAST(0, \"NSDate\")"),
        (#Predicate<Item> { $0.price == 0 }, "price == 0.0"),
        (#Predicate<Item> { $0.price > -1e300 }, "price > -1e+300"),
        // Dictionaries find a key by canonical equivalence in both.
        (#Predicate<Item> { $0.extra["a"] == 1 }, "extra[\"a\"] == 1"),
        (#Predicate<Item> { $0.extra["caf\u{E9}"] != nil }, "extra[\"café\"] != nil"),
        (#Predicate<Item> { $0.extra[$0.title] == nil }, "extra[title] == nil"),
        (#Predicate<Item> { $0.extra["b", default: 1] > 0 },
         "TERNARY(extra[\"b\"] != nil, extra[\"b\"], 1) > 0"),
        // A pattern of plain ASCII characters is found as the string is.
        (#Predicate<Item> { $0.title.contains(/af/) }, "title CONTAINS[s] \"af\""),
        (#Predicate<Item> { $0.title.contains(/e/) }, "title CONTAINS[s] \"e\""),
        (#Predicate<Item> { $0.title.contains(/Ann/) }, "title CONTAINS[s] \"Ann\""),
    ]

    @Test func convertedPredicatesAnswerAsSwift() throws {
        let items = Self.items(count: 600, seed: 7)
        for (predicate, format) in Self.converted {
            let filter = try Filter(predicate)
            #expect(filter.format == format)
            let typed = filter.compiled(for: Item.self)
            let dynamic = filter.compiled()
            var matched = 0
            for item in items {
                let expected = try predicate.evaluate(item)
                if expected { matched += 1 }
                #expect(try typed.evaluate(with: item) == expected, "\(format) typed on \(item)")
                #expect(try dynamic.evaluate(with: item.predicateValue) == expected, "\(format) on values, \(item)")
            }
            // A predicate every object passes or fails tells little; an empty
            // needle is found in every string, as in Swift.
            let everywhere = format.hasSuffix("\"\"")
            #expect(matched > 0 && (matched < items.count || everywhere), "\(format) matched \(matched) of \(items.count)")
        }
    }

    @Test func convertedPredicatesRoundTrip() throws {
        for (predicate, _) in Self.converted {
            let filter = try Filter(predicate)
            #expect(try Filter(filter.format).predicate == filter.predicate, "\(filter.format)")
            let data = try JSONEncoder().encode(filter.predicate)
            #expect(try JSONDecoder().decode(PredicateNode.self, from: data) == filter.predicate)
        }
    }

    /// Each refusal names the expression type and says why. (`ExpressionEvaluate`
    /// cannot occur: on Linux the macro refuses `evaluate` inside a predicate,
    /// and the tree is not a `StandardPredicateExpression`.)
    @Test func refusalsNameTheExpression() {
        let high = Level.high
        let big = UInt64.max
        let ignoringCase = /ann/.ignoresCase()
        let refused: [(Predicate<Item>, String)] = [
            (#Predicate<Item> { $0.title.count > 2 }, "KeyPath"),
            (#Predicate<Item> { $0.tags.max() == "b" }, "SequenceMaximum"),
            (#Predicate<Item> { $0.scores.starts(with: [1]) }, "SequenceStartsWith"),
            (#Predicate<Item> { $0.tags == ["b"] }, "Equal"),
            (#Predicate<Item> { $0.year / 3 == 600 }, "IntDivision"),
            (#Predicate<Item> { $0.year % 3 == 0 }, "IntRemainder"),
            (#Predicate<Item> { $0.editor!.age > 3 }, "ForcedUnwrap"),
            (#Predicate<Item> { $0.editor.flatMap { _ in 1 } == 1 }, "OptionalFlatMap"),
            (#Predicate<Item> { $0.scores[0..<1].isEmpty }, "CollectionRangeSubscript"),
            (#Predicate<Item> { item in item.people.contains { p in p.age == item.scores[0] } }, "CollectionIndexSubscript"),
            (#Predicate<Item> { item in item.people.allSatisfy { p in p.age == item.scores[1] } }, "CollectionIndexSubscript"),
            (#Predicate<Item> { $0.codes[1] == 2 }, "DictionaryKeySubscript"),
            (#Predicate<Item> { $0.maybes["a"] == nil }, "DictionaryKeySubscript"),
            (#Predicate<Item> { $0.maybes["a", default: nil] == nil }, "DictionaryKeyDefaultValueSubscript"),
            (#Predicate<Item> { $0.codes[1, default: 0] == 2 }, "DictionaryKeyDefaultValueSubscript"),
            (#Predicate<Item> { $0.title.contains(/x;y/) }, "StringContainsRegex"),
            (#Predicate<Item> { $0.title.contains(/K/) }, "StringContainsRegex"),
            (#Predicate<Item> { $0.title.contains(/caf\u{E9}/) }, "StringContainsRegex"),
            (#Predicate<Item> { $0.title.contains(ignoringCase) }, "StringContainsRegex"),
            (#Predicate<Item> { ($0.year...2000).contains(1990) }, "ClosedRange"),
            (#Predicate<Item> { (2000..<1990).contains($0.year) }, "Range"),
            (#Predicate<Item> { $0.title.contains { c in c == c } }, "SequenceContainsWhere"),
            (#Predicate<Item> { $0.title.allSatisfy { c in c != c } }, "SequenceAllSatisfy"),
            (#Predicate<Item> { $0.level < high }, "Comparison"),
            (#Predicate<Item> { $0.weight * 3 == 0.3 }, "Arithmetic"),
            (#Predicate<Item> { $0.weight / 3 > 0 }, "FloatDivision"),
            (#Predicate<Item> { $0.serial == big }, "Equal"),
            (#Predicate<Item> { [big].contains($0.serial) }, "SequenceContains"),
            (#Predicate<Item> { $0.extra == ["a": 1] }, "Equal"),
            (#Predicate<Item> { $0.title.contains(/a+b/) }, "StringContainsRegex"),
            (#Predicate<Item> { ($0.rating as Any?) is Int }, "TypeCheck"),
            (#Predicate<Item> { (($0.rating as Any?) as? Int) == 1 }, "ConditionalCast"),
            (#Predicate<Item> { (($0.rating as Any?) as! Int?) == 1 }, "ForceCast"),
        ]
        for (predicate, type) in refused {
            #expect("\(type): \(String(describing: try? Filter(predicate).format))") {
                _ = try Filter(predicate)
            } throws: { error in
                guard let error = error as? PredicateConversionError else { return false }
                return error.expressionType == type && error.description.contains(type)
            }
        }
    }

    /// What an evaluation gives: its answer, or nil when it throws.
    static func outcome(_ evaluate: () throws -> Bool) -> Bool? { try? evaluate() }

    /// An index out of range throws in Swift and in Sift alike, and `&&`,
    /// `||` and `? :` skip the same operands in both: the outcome (answer
    /// or error) is the same on every object.
    @Test func indexSubscriptsThrowAsSwift() throws {
        let items = Self.items(count: 600, seed: 5)
        let low = Self.low
        let predicates: [(Predicate<Item>, String)] = [
            (#Predicate<Item> { $0.scores[0] == 1 }, "scores[0] == 1"),
            (#Predicate<Item> { !$0.scores.isEmpty && $0.scores[0] > 2 }, "(NOT scores.@count == 0) AND scores[0] > 2"),
            (#Predicate<Item> { $0.scores.count < 3 || $0.scores[2] < 0 }, "scores.@count < 3 OR scores[2] < 0"),
            (#Predicate<Item> { $0.people[1].age > 30 }, "people[1].age > 30"),
            (#Predicate<Item> { $0.tags.isEmpty ? false : $0.tags[0] == "b" }, ""),
            (#Predicate<Item> { !$0.scores.isEmpty && $0.scores[$0.scores.count - 1] > 3 },
             "(NOT scores.@count == 0) AND scores[scores.@count - 1] > 3"),
            (#Predicate<Item> { $0.scores[low] == 1 }, "scores[-3] == 1"),
            // filter tests every element in Swift too.
            (#Predicate<Item> { item in item.people.filter { p in p.age > item.scores[0] }.count > 0 }, ""),
        ]
        for (predicate, format) in predicates {
            let filter = try Filter(predicate)
            if !format.isEmpty { #expect(filter.format == format) }
            let typed = filter.compiled(for: Item.self)
            let dynamic = filter.compiled()
            var outcomes: [Bool?: Int] = [:]
            for item in items {
                let expected = Self.outcome { try predicate.evaluate(item) }
                outcomes[expected, default: 0] += 1
                #expect(Self.outcome { try typed.evaluate(with: item) } == expected, "\(filter.format) typed on \(item)")
                #expect(Self.outcome { try dynamic.evaluate(with: item.predicateValue) } == expected, "\(filter.format) on values")
            }
            // Every predicate but the negative index answers some objects.
            #expect(outcomes.count >= 2 || format == "scores[-3] == 1", "\(filter.format): \(outcomes)")
        }
    }

    struct Text: KeyValueReadable {
        var text: String
        static let keyTable = KeyTable<Text>(typed: ["text": .string(\.text)])
    }

    /// Strings where Swift's Regex and Sift's searches could part: marks
    /// after a letter, either composition, CR LF, emoji with modifiers and
    /// joiners, flags, the three scalars that decompose to ASCII, Hangul
    /// jamo, a virama.
    static let hardTexts = [
        "", "Ann", "ann", "ANN", "café", "cafe\u{301}", "cafe", "e", "e\u{301}", "\u{301}", "Kelvin", "\u{212A}elvin",
        "x;y", "x\u{37E}y", "a`b", "a\u{1FEF}b", "\r\n", "a\r\nb", "a\rb", "a\nb", "👍🏽", "👍", "👍\u{200D}x", "🇫🇷", "a b",
        "a\tb", "ab\u{301}c", "abc\u{301}", "\u{1100}\u{1161}", "\u{915}\u{94D}\u{937}", "file10", "a/b#c", "ß", "ss",
        "Å", "A\u{30A}", "\u{212B}", "e\u{323}\u{302}", "\u{1EC7}", "i\u{307}", "İ",
    ]

    /// A pattern of plain ASCII characters matches where the string is
    /// found, grapheme clusters respected; the outcome is Swift's on every
    /// hard string and on random ones.
    @Test func regexOfPlainCharacters() throws {
        let nothing = try Regex("")
        let cr = try Regex("\r")
        let lf = try Regex("\n")
        let tab = try Regex("a\tb")
        let predicates: [(Predicate<Text>, String)] = [
            (#Predicate<Text> { $0.text.contains(/e/) }, "text CONTAINS[s] \"e\""),
            (#Predicate<Text> { $0.text.contains(/elvin/) }, "text CONTAINS[s] \"elvin\""),
            (#Predicate<Text> { $0.text.contains(/a b/) }, "text CONTAINS[s] \"a b\""),
            (#Predicate<Text> { $0.text.contains(/b#c/) }, "text CONTAINS[s] \"b#c\""),
            (#Predicate<Text> { $0.text.contains(/ab/) }, "text CONTAINS[s] \"ab\""),
            (#Predicate<Text> { $0.text.contains(/ss/) }, "text CONTAINS[s] \"ss\""),
            (#Predicate<Text> { $0.text.contains(/i/) }, "text CONTAINS[s] \"i\""),
            (#Predicate<Text> { $0.text.contains(/A/) }, "text CONTAINS[s] \"A\""),
            (#Predicate<Text> { $0.text.contains(nothing) }, "text CONTAINS[s] \"\""),
            (#Predicate<Text> { $0.text.contains(cr) }, "text CONTAINS[s] \"\r\""),
            (#Predicate<Text> { $0.text.contains(lf) }, #"text CONTAINS[s] "\n""#),
            (#Predicate<Text> { $0.text.contains(tab) }, "text CONTAINS[s] \"a\tb\""),
        ]
        var rng = SeededRandom(seed: 41)
        let texts = Self.hardTexts + (0..<400).map { _ in
            (0..<Int(rng.next() % 5)).map { _ in Self.hardTexts[Int(rng.next() % UInt64(Self.hardTexts.count))] }.joined()
        }
        for (predicate, format) in predicates {
            let filter = try Filter(predicate)
            #expect(filter.format == format)
            let typed = filter.compiled(for: Text.self)
            var matched = 0
            for text in texts.map(Text.init) {
                let expected = try predicate.evaluate(text)
                if expected { matched += 1 }
                #expect(try typed.evaluate(with: text) == expected, "\(format) on \(Array(text.text.unicodeScalars))")
            }
            #expect(matched > 0)
        }
    }

    /// The patterns refused are those Swift matches otherwise than the
    /// string: `K` is not found in KELVIN SIGN by Regex, though `==` takes
    /// them for equal (as for `;` and GREEK QUESTION MARK).
    @Test func regexDiffersFromStringOnDecomposingScalars() throws {
        let kelvin = Text(text: "\u{212A}elvin"), question = Text(text: "x\u{37E}y")
        #expect(try !#Predicate<Text> { $0.text.contains(/K/) }.evaluate(kelvin))
        #expect(try #Predicate<Text> { $0.text.contains("K") }.evaluate(kelvin))
        #expect(try !#Predicate<Text> { $0.text.contains(/x;y/) }.evaluate(question))
        #expect(try #Predicate<Text> { $0.text.contains("x;y") }.evaluate(question))
    }

    /// `.lexical`, the only `String.StandardComparator` on Linux, measured
    /// against every Sift comparison on hard strings (case, marks in either
    /// composition, digits, ß, the Kelvin sign, CJK, Arabic, emoji, the
    /// empty string) and random joins of them: it answers as Swift's `<` and
    /// `>` do, and `swiftCompare:`, the closest, parts from it exactly on the
    /// unequal pairs `<` orders neither way, so it is refused.
    @Test func lexicalComparatorIsMeasured() throws {
        var rng = SeededRandom(seed: 29)
        let pieces = Self.hardTexts + ["file2", "File10", "a-b", "a_b", "Z", "z", "0", "10", "2", "ä", "a\u{308}", "Æ", "ﬁ", "ａ", "中", "日本", "Ω", "\u{2126}", "ا", "."]
        let random = (0..<300).map { _ in (0..<Int(rng.next() % 4)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() }
        let strings = pieces + random
        var disagreements: [SortKey.Comparison: Int] = [:]
        var unordered = 0
        for x in strings {
            for y in strings {
                let lexical = String.StandardComparator.lexical.compare(x, y)
                let swift: ComparisonResult = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
                #expect(lexical == swift)
                let neitherWay = x != y && !(x < y) && !(y < x)
                if neitherWay { unordered += 1 }
                for comparison in SortKey.Comparison.allCases where comparison.order(x, y) != lexical {
                    disagreements[comparison, default: 0] += 1
                    if comparison == .swift { #expect(neitherWay, "\(Array(x.unicodeScalars)) vs \(Array(y.unicodeScalars))") }
                }
            }
        }
        // The pair of the refusal's reason.
        #expect(!("cafe\u{301}" < "caf\u{E9}e") && !("caf\u{E9}e" < "cafe\u{301}") && "cafe\u{301}" != "caf\u{E9}e")
        #expect(unordered > 0 && disagreements[.swift] == unordered, "\(disagreements)")
        for comparison in SortKey.Comparison.allCases {
            #expect((disagreements[comparison] ?? 0) > 0, "\(comparison) orders as .lexical")
        }
        let refused = [
            SortDescriptor(\Person.name, comparator: .lexical),
            SortDescriptor(\Person.name, comparator: .lexical, order: .reverse),
            SortDescriptor(\Person.name, comparator: String.StandardComparator(.lexical, order: .reverse)),
        ]
        for descriptor in refused {
            #expect {
                _ = try SortKey(descriptor)
            } throws: { error in
                (error as? PredicateConversionError)?.description.contains("lexical answers orderedSame") == true
            }
        }
    }

    struct Unlisted: KeyValueReadable {
        var a: Int
        var b: Int
        static let keyTable = KeyTable<Unlisted>(typed: ["a": .int(\.a), "b": .int { $0.b }])
    }

    /// A key path the table does not record is refused, naming the type.
    @Test func unrecordedKeyPathIsRefused() throws {
        #expect(try Filter(#Predicate<Unlisted> { $0.a == 1 }).format == "a == 1")
        #expect {
            _ = try Filter(#Predicate<Unlisted> { $0.b == 1 })
        } throws: { error in
            (error as? PredicateConversionError)?.description.contains("Unlisted") == true
        }
    }

    struct Optionals: KeyValueReadable {
        var values: [Int?]
        var other: Int?

        static let keyTable = KeyTable<Optionals>(typed: [
            "values": .value { $0.values.predicateValue }.reads(\.values),
            "other": .value { $0.other.predicateValue }.reads(\.other),
        ])
    }

    /// Swift finds nil in a sequence of optionals; NSPredicate's IN never
    /// does: a sequence read from an object converts only for an element
    /// that is a constant other than nil.
    @Test func sequencesOfOptionals() throws {
        let three = try Filter(#Predicate<Optionals> { $0.values.contains(3) })
        #expect(three.format == "3 IN values")
        let objects = [Optionals(values: [nil, 3], other: nil), Optionals(values: [nil], other: 3), Optionals(values: [], other: nil)]
        for o in objects {
            #expect(try three.compiled(for: Optionals.self).evaluate(with: o) == o.values.contains(3))
        }
        #expect {
            _ = try Filter(#Predicate<Optionals> { $0.values.contains($0.other) })
        } throws: { error in
            (error as? PredicateConversionError)?.expressionType == "SequenceContains"
        }
    }

    /// A converted predicate that reads a key outside an allow-list is
    /// refused exactly as its format string is: the same part, message,
    /// range and source (issue 35).
    @Test func policyRefusesAsTheFormatString() throws {
        let policy = PredicatePolicy.untrusted(keyPaths: ["title", "owner.name"])
        let outside: [(Predicate<Item>, PolicyViolation.Part)] = [
            (#Predicate<Item> { $0.title == "Ann" && $0.year > 1990 }, .keyPath("year")),
            (#Predicate<Item> { $0.owner.age > 40 }, .keyPath("owner.age")),
            (#Predicate<Item> { ($0.rating ?? 0) > 2 }, .keyPath("rating")),
            (#Predicate<Item> { $0.people.contains { $0.age > 50 } }, .subquery),
        ]
        for (predicate, part) in outside {
            let filter = try Filter(predicate)
            let converted = #expect(throws: PolicyViolation.self) { try policy.check(filter) }
            let parsed = #expect(throws: PolicyViolation.self) { try policy.check(Filter(filter.format)) }
            #expect(converted == parsed && converted?.part == part, "\(filter.format): \(String(describing: converted)) vs \(String(describing: parsed))")
        }
        let inside = try Filter(#Predicate<Item> { $0.title == "Ann" || $0.owner.name != "b" })
        #expect(throws: Never.self) { try policy.check(inside) }
    }

    /// Every scalar whose canonical decomposition is ASCII, other than ASCII
    /// itself, decomposes to `;`, `` ` `` or `K`: the constants that avoid
    /// them compare literally as Swift compares canonically.
    @Test func asciiDecompositions() {
        var targets: Set<String> = []
        for v in 0x80...0x10FFFF {
            guard let u = Unicode.Scalar(v) else { continue }
            let d = String(u).decomposedStringWithCanonicalMapping
            if d.unicodeScalars.allSatisfy(\.isASCII) { targets.insert(d) }
        }
        #expect(targets == [";", "`", "K"])
    }

    @Test func sortDescriptorsOrderAsSwift() throws {
        // Swift's comparator leaves NaN unordered; Sift refuses to sort it.
        let items = Self.items(count: 300, seed: 11).filter { !$0.price.isNaN }
        let descriptors: [[SortDescriptor<Item>]] = [
            [SortDescriptor(\Item.year)],
            [SortDescriptor(\Item.price, order: .reverse), SortDescriptor(\Item.year)],
            [SortDescriptor(\Item.owner.age), SortDescriptor(\Item.stamp, order: .reverse)],
            [SortDescriptor(\Item.rating), SortDescriptor(\Item.year, order: .reverse)],
            [SortDescriptor(\Item.title), SortDescriptor(\Item.year)],
            [SortDescriptor(\Item.note, order: .reverse), SortDescriptor(\Item.owner.name)],
        ]
        for sort in descriptors {
            let keys = try [SortKey](sort)
            let expected = items.sorted(using: sort)
            let fetched = try FetchSpecification(entity: nil, filter: nil, sort: keys).execute(on: items)
            #expect(fetched.map(\.stamp) == expected.map(\.stamp) || keys.count == 1, "\(keys)")
            // Equal keys may come in either order; compare the keys' values.
            for (a, b) in zip(fetched, expected) {
                for descriptor in sort { #expect(descriptor.compare(a, b) == .orderedSame, "\(keys)") }
            }
        }
        #expect(try [SortKey]([SortDescriptor(\Item.owner.age, order: .reverse)]).map(\.description) == ["owner.age DESC"])
        #expect(try SortKey(SortDescriptor(\Item.title)).description == "title ASC swiftCompare:")
        #expect(throws: PredicateConversionError.self) { try SortKey(SortDescriptor(\Item.title, comparator: .lexical)) }
    }

    @Test func fetchDescriptorShape() throws {
        let items = Self.items(count: 200, seed: 3).filter { !$0.price.isNaN }
        let fetch = try FetchSpecification(
            predicate: #Predicate<Item> { $0.year > 1990 }, sortBy: [SortDescriptor(\.price)], fetchOffset: 2,
            fetchLimit: 5)
        #expect(fetch.filter?.format == "year > 1990")
        let expected = Array(items.filter { $0.year > 1990 }.sorted(using: SortDescriptor(\Item.price)).dropFirst(2).prefix(5))
        let fetched = try fetch.execute(on: items)
        #expect(fetched.map(\.price) == expected.map(\.price))
    }
}

/// The example of the SwiftPredicates article.
enum SwiftPredicatesArticle {
    struct Book: KeyValueReadable {
        var title: String
        var year: Int
        var tags: [String]

        static let keyTable = KeyTable<Book>(typed: [
            "title": .string(\.title),
            "year": .int(\.year),
            "tags": .strings(\.tags),
        ])
    }

    @Test static func example() throws {
        let filter = try Filter(#Predicate<Book> { $0.year > 1980 && $0.tags.contains("sf") })
        #expect(filter.format == "year > 1980 AND \"sf\" IN tags")
        let sort = try [SortKey]([SortDescriptor(\Book.year, order: .reverse)])
        #expect(sort.map(\.description) == ["year DESC"])
        let books = [Book(title: "a", year: 1990, tags: ["sf"]), Book(title: "b", year: 1970, tags: ["sf"])]
        #expect(try books.filter(filter.compiled(for: Book.self)).map(\.title) == ["a"])
    }
}
