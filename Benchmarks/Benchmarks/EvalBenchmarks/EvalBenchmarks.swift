import Benchmark
import EvalSupport
import Foundation
import Sift

// Evaluation of the five predicates over 1,000,000 objects, in every form:
//
//   a   hand-written condition, inlined into `people.count(where:)` as a closure written there is
//   a2  the same closure, opaque: a stored `(Person) -> Bool` called by value
//   a3  hand-written `people.filter { … }`
//   b   Sift typed:   `try people.count(where: f)`, f = `Filter(fmt).compiled(for: Person.self)`
//   b2  Sift typed:   `try people.filter(f)`
//   c   Sift dynamic: `try values.count(where: g)` over `Value.dictionary`s, g = `Filter(fmt).compiled()`
//   c2  Sift table:   `try table.count(where: Filter(fmt))`, table = `ValueTable(values)` (columns by key)
//   d   Foundation `#Predicate` (`evaluate` per object, counting)
//   m   memory of the Sift typed count / filter and the hand-written filter
//
// One iteration evaluates all 1,000,000 objects, and `scalingFactor: .mega`
// makes that 1,000,000 operations, so the default output (rows marked `*`)
// reads as ns/object, rounded to whole ns. `--scale` (which, in
// package-benchmark 1.38.1, turns scaling *off*) prints the ns per
// iteration: divided by 1,000,000 that is ns/object with more digits, which
// the fast hand-written rows (1–10 ns/object) need.
// The data are generated once per benchmark process, in the setup closure,
// outside the measured region (package-benchmark runs each benchmark in its
// own process).

/// The typed data, generated on first use.
let people: [Person] = PeopleData.make()
/// The same objects as `Value.dictionary`s, built on first use.
let values: [Value] = people.map(\.dynamicValue)
/// The same dictionaries in a table, built on first use.
let table = ValueTable(values)

@Sendable func loadPeople() async throws { blackHole(people.count) }
@Sendable func loadValues() async throws { blackHole(values.count) }
@Sendable func loadTable() async throws { blackHole(table.rows.count) }

/// The call-site closure for each predicate (inlined into `count(where:)`).
@inline(never)
func handWrittenCount(_ number: Int) -> Int {
    switch number {
    case 1: return people.count(where: HandWritten.age)
    case 2: return people.count(where: HandWritten.beginsWith)
    case 3: return people.count(where: HandWritten.containsCD)
    case 4: return people.count(where: HandWritten.anyTag)
    default: return people.count(where: HandWritten.compound)
    }
}

@inline(never)
func handWrittenFilter(_ number: Int) -> [Person] {
    switch number {
    case 1: return people.filter(HandWritten.age)
    case 2: return people.filter(HandWritten.beginsWith)
    case 3: return people.filter(HandWritten.containsCD)
    case 4: return people.filter(HandWritten.anyTag)
    default: return people.filter(HandWritten.compound)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 25
    )
    // 1M evaluations of #Predicate take 2–5 s: one warm-up and 3 samples.
    let slow = Benchmark.Configuration(
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 3
    )
    // Peak resident memory (whole process, sampled every ~5 ms; the data set
    // is in it), its growth during the run, and the mallocs per iteration.
    let memory = Benchmark.Configuration(
        metrics: [.peakMemoryResident, .peakMemoryResidentDelta, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 10
    )

    for c in evalCases {
        let n = c.number
        let typed: TypedFilter<Person>
        let dynamic: CompiledFilter
        let filter: Filter
        do {
            typed = try Filter(c.format).compiled(for: Person.self)
            dynamic = try Filter(c.format).compiled()
            filter = try Filter(c.format)
        } catch {
            fatalError("cannot parse \(c.format): \(error)")
        }

        Benchmark("\(n)a hand-written: \(c.format)", closure: { _ in
            blackHole(handWrittenCount(n))
        }, setup: loadPeople)

        Benchmark("\(n)a2 hand-written opaque closure: \(c.format)", closure: { _ in
            blackHole(opaqueCount(people, c.handWritten))
        }, setup: loadPeople)

        Benchmark("\(n)a3 hand-written filter: \(c.format)", closure: { _ in
            blackHole(handWrittenFilter(n))
        }, setup: loadPeople)

        Benchmark("\(n)b Sift typed count: \(c.format)", closure: { _ in
            blackHole(try people.count(where: typed))
        }, setup: loadPeople)

        Benchmark("\(n)b2 Sift typed filter: \(c.format)", closure: { _ in
            blackHole(try people.filter(typed))
        }, setup: loadPeople)

        Benchmark("\(n)c Sift dynamic count: \(c.format)", closure: { _ in
            blackHole(try values.count(where: dynamic))
        }, setup: loadValues)

        Benchmark("\(n)c2 Sift table count: \(c.format)", closure: { _ in
            blackHole(try table.count(where: filter))
        }, setup: loadTable)

        Benchmark("\(n)d #Predicate: \(c.predicateSource)", configuration: slow, closure: { _ in
            blackHole(try predicateCount(people, c.predicate))
        }, setup: loadPeople)

        Benchmark("\(n)m memory Sift typed count: \(c.format)", configuration: memory, closure: { _ in
            blackHole(try people.count(where: typed))
        }, setup: loadPeople)

        Benchmark("\(n)m memory Sift typed filter: \(c.format)", configuration: memory, closure: { _ in
            blackHole(try people.filter(typed))
        }, setup: loadPeople)

        Benchmark("\(n)m memory hand-written filter: \(c.format)", configuration: memory, closure: { _ in
            blackHole(handWrittenFilter(n))
        }, setup: loadPeople)
    }
}
