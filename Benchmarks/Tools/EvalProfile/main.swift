// Runs one evaluation predicate over the generated people many times, for
// profiling (callgrind, perf) and for checking the match counts.
//
//   EvalProfile [--case 1-5] [--variant V] [--n N] [--reps R] [--samples]
//     V: typed|filter|dynamic|inline|hand|opaque|predicate|converted|sqlite|sqlite-indexed|parse|convert
//     converted: Sift typed, compiled from the case's #Predicate (Filter(predicate));
//     convert: the conversion alone, per conversion. A case whose #Predicate is
//     refused prints "refused: <reason>" and no samples.
//     --samples also prints each repetition's ns/object (parse: ns per parse)
//   EvalProfile --variant parse --terms K   parse a predicate of K comparisons
//     (the five cases' comparisons in turn, joined by AND and OR)
//   EvalProfile --variant parse --keys K [--shape plain|indexed|variable]
//     parse one comparison of a key path of K keys: a.a.a… == 1,
//     arr[0].a.a… == 1 or $x.a.a… == 1
//   EvalProfile --counts [--n N]     match counts of every variant, for all five cases
//   EvalProfile --json FILE [--n N]  write the data as a JSON array (for nspred --data)
import EvalSupport
import Foundation
import Sift

var caseNumber = 1
var variant = "typed"
var count = PeopleData.defaultCount
var reps = 20
var mode = "run"
var jsonPath = ""
var printSamples = false
var terms = 0
var keys = 0
var shape = "plain"

var arguments = CommandLine.arguments.dropFirst()
@MainActor func nextArgument(_ flag: String) -> String {
    guard let v = arguments.popFirst() else {
        FileHandle.standardError.write("missing value after \(flag)\n".data(using: .utf8)!)
        exit(2)
    }
    return v
}
while let a = arguments.popFirst() {
    switch a {
    case "--case": caseNumber = Int(nextArgument(a)) ?? 1
    case "--variant": variant = nextArgument(a)
    case "--n": count = Int(nextArgument(a)) ?? count
    case "--reps": reps = Int(nextArgument(a)) ?? reps
    case "--samples": printSamples = true
    case "--terms": terms = Int(nextArgument(a)) ?? 0
    case "--keys": keys = Int(nextArgument(a)) ?? 0
    case "--shape": shape = nextArgument(a)
    case "--counts": mode = "counts"
    case "--json": mode = "json"; jsonPath = nextArgument(a)
    default:
        FileHandle.standardError.write("unknown argument \(a)\n".data(using: .utf8)!)
        exit(2)
    }
}

let people = PeopleData.make(count: count)

@inline(never) func keep<T>(_ x: T) { withExtendedLifetime(x) {} }

/// One pass over the data. Tools/profile.sh has callgrind collect only
/// inside this function, so the data generation is not counted.
@inline(never) func measured(_ body: () throws -> Int) throws -> Int { try body() }

/// The hand-written condition inlined into `count(where:)`.
@inline(never) func inlineCount(_ number: Int) -> Int {
    switch number {
    case 1: return people.count(where: HandWritten.age)
    case 2: return people.count(where: HandWritten.beginsWith)
    case 3: return people.count(where: HandWritten.containsCD)
    case 4: return people.count(where: HandWritten.anyTag)
    default: return people.count(where: HandWritten.compound)
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

switch mode {
case "json":
    let bytes = PeopleData.json(people)
    guard FileManager.default.createFile(atPath: jsonPath, contents: Data(bytes)) else {
        FileHandle.standardError.write("cannot write \(jsonPath)\n".data(using: .utf8)!)
        exit(1)
    }
    print("wrote \(people.count) objects, \(bytes.count) bytes, to \(jsonPath)")

case "counts":
    let values = people.map(\.dynamicValue)
    let nonASCII = people.filter { $0.name.utf8.contains { $0 >= 0x80 } }.count
    let heapNames = people.filter { $0.name.utf8.count > 15 }.count
    print("n=\(people.count) non-ASCII names=\(nonASCII) names over 15 UTF-8 bytes=\(heapNames)")
    print("case\thand\topaque\ttyped\ttypedFilter\tdynamic\t#Predicate\tformat")
    for c in evalCases {
        let typed = try Filter(c.format).compiled(for: Person.self)
        let dynamic = try Filter(c.format).compiled()
        let hand = people.count(where: c.handWritten)
        let opaque = opaqueCount(people, c.handWritten)
        let t = try people.count(where: typed)
        let tf = try people.filter(typed).count
        let d = try values.count(where: dynamic)
        let p = try predicateCount(people, c.predicate)
        print("\(c.number)\t\(hand)\t\(opaque)\t\(t)\t\(tf)\t\(d)\t\(p)\t\(c.format)")
    }

default:
    guard let c = evalCases.first(where: { $0.number == caseNumber }) else {
        FileHandle.standardError.write("no case \(caseNumber)\n".data(using: .utf8)!)
        exit(2)
    }
    /// The format parsed by the parse variant: the case's, K terms, or a
    /// key path of K keys.
    let format = keys > 0 ? longKeyPath(keys: keys, shape: shape) : terms > 0 ? longFormat(terms: terms) : c.format
    let typed = try Filter(c.format).compiled(for: Person.self)
    let dynamic = try Filter(c.format).compiled()
    let values = variant == "dynamic" || variant == "table" ? people.map(\.dynamicValue) : []
    let built = now()
    let table = variant == "table" ? ValueTable(values) : nil
    if table != nil {
        FileHandle.standardError.write(String(format: "table built in %.2f s\n", Double(now() - built) / 1e9).data(using: .utf8)!)
    }
    let parsed = try Filter(c.format)
    if variant == "converted" || variant == "convert" {
        do {
            _ = try Filter(c.predicate)
        } catch {
            print("case \(c.number) \(variant) refused: \(error)")
            exit(0)
        }
    }
    let converted = variant == "converted" ? try Filter(c.predicate).compiled(for: Person.self) : nil
    let sqlite = variant.hasPrefix("sqlite")
        ? try SQLiteContender(people: people, evalCase: c, indexed: variant == "sqlite-indexed") : nil
    /// Parsing is timed per parse, over this many parses per repetition
    /// (fewer for long predicates: about 100,000 terms per repetition).
    let parses = keys > 0 ? max(5, 100_000 / keys) : terms > 0 ? max(20, 100_000 / terms) : 10_000
    let body: () throws -> Int
    switch variant {
    case "typed": body = { try people.count(where: typed) }
    case "filter": body = { let r = try people.filter(typed); keep(r); return r.count }
    case "dynamic": body = { try values.count(where: dynamic) }
    case "table": body = { try table!.count(where: parsed) }
    case "inline": body = { inlineCount(c.number) }
    case "hand": body = { people.count(where: c.handWritten) }
    case "opaque": body = { opaqueCount(people, c.handWritten) }
    case "predicate": body = { try predicateCount(people, c.predicate) }
    case "converted": body = { try people.count(where: converted!) }
    case "convert":
        body = {
            var nodes = 0
            for _ in 0..<parses { nodes += try Filter(c.predicate).predicate == .truePredicate ? 0 : 1 }
            return nodes
        }
    // A fetch: the matches sorted by name, the first 20 (FetchSpecification on
    // the typed array, which filters in place and sorts by the key table's
    // readers), against the same request on the people's values, and the
    // hand-written filter and sort.
    case "fetch": body = { try fetchRequest(parsed).execute(on: people).count }
    case "fetch-values":
        let boxed = people.map(\.predicateValue)
        body = { try fetchRequest(parsed).execute(on: boxed).count }
    case "fetch-hand": body = { Array(people.filter(c.handWritten).sorted { $0.name < $1.name }.prefix(20)).count }
    case "sqlite", "sqlite-indexed": body = { try sqlite!.count() }
    case "parse":
        body = {
            var nodes = 0
            for _ in 0..<parses { nodes += try Filter(format).predicate == .truePredicate ? 0 : 1 }
            return nodes
        }
    default:
        FileHandle.standardError.write("unknown variant \(variant)\n".data(using: .utf8)!)
        exit(2)
    }
    let perParse = variant == "parse" || variant == "convert"
    let perRep = Double(perParse ? parses : max(people.count, 1))
    var matches = try body()  // warm-up
    var samples: [Double] = []
    for _ in 0..<reps {
        let t0 = now()
        matches = try measured(body)
        samples.append(Double(now() - t0) / perRep)
    }
    let ns = samples.reduce(0, +) / Double(max(samples.count, 1))
    let unit = perParse ? "ns/parse" : "ns/object"
    let shown = keys > 0 ? "\(keys) keys (\(shape)), \(format.utf8.count) bytes"
        : terms > 0 ? "\(terms) terms, \(format.utf8.count) bytes" : c.format
    print("case \(c.number) \(variant) n=\(people.count) reps=\(reps) matches=\(matches) \(String(format: "%.1f", ns)) \(unit): \(shown)")
    if printSamples { print("samples " + samples.map { String(format: "%.2f", $0) }.joined(separator: " ")) }
}

/// A predicate of `terms` comparisons: the comparisons of the five cases in
/// turn (with changing constants), joined by AND, with OR after every fourth.
func longFormat(terms: Int) -> String {
    var out = ""
    for i in 0..<terms {
        if i > 0 { out += i % 4 == 0 ? " OR " : " AND " }
        switch i % 5 {
        case 0: out += "age > \(i % 100)"
        case 1: out += "name BEGINSWITH[c] 'a\(i % 10)'"
        case 2: out += "name CONTAINS[cd] 'ery'"
        case 3: out += "ANY tags == 't\(i % 7)'"
        default: out += "author.name == 'A\(i % 13)'"
        }
    }
    return out
}

/// One comparison of a key path of `keys` keys, after a plain start, an
/// index or a variable.
func longKeyPath(keys: Int, shape: String) -> String {
    let path = Array(repeating: "a", count: keys).joined(separator: ".")
    switch shape {
    case "indexed": return "arr[0]." + path + " == 1"
    case "variable": return "$x." + path + " == 1"
    default: return path + " == 1"
    }
}

func fetchRequest(_ filter: Filter) -> FetchSpecification {
    FetchSpecification(filter: filter, sort: [.ascending("name")], limit: 20)
}
