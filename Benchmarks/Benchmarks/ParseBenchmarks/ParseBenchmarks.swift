import Benchmark
import Sift

// Parse + bind of format strings, printing, and a same-run baseline.
//
// Every benchmark runs `scaledIterations` (1,000) operations per sample, so the
// scaled wall clock is the time of one operation and the scaled malloc count
// is the number of allocations per operation. Compare parse times with the
// "baseline split" rows of the same run, not with absolute numbers from another
// machine or another run.

/// The three predicates, timed for GNUstep too when these numbers were
/// taken (`peers/compare.py` now times GNUstep's parsing of its five).
let peerFormats: [(label: String, format: String)] = [
    ("simple", "age > 30"),
    ("beginswith", "name BEGINSWITH[c] 'ab'"),
    ("compound", "score > 50.0 AND ANY authors.age > 60"),
]

let boundFormat = "name BEGINSWITH[c] %@ AND age > %d"
let boundArguments: [FormatArgument] = [.value(.string("ab")), .value(.int(30))]

@inline(never)
func parse(_ format: String, _ arguments: [FormatArgument] = []) -> PredicateNode {
    do {
        return try FormatParser.parsePredicate(format, arguments: arguments)
    } catch {
        fatalError("cannot parse \(format): \(error)")
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    for (label, format) in peerFormats {
        // Fail before timing if a format does not parse.
        blackHole(parse(format))

        Benchmark("parse+bind \(label): \(format)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(parse(format))
            }
        }

        Benchmark("baseline split \(label): \(format)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(format.split(separator: " "))
            }
        }
    }

    blackHole(parse(boundFormat, boundArguments))
    Benchmark("parse+bind bound: \(boundFormat) [ab, 30]") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(parse(boundFormat, boundArguments))
        }
    }

    let compound = parse(peerFormats[2].format)
    Benchmark("print compound: \(FormatPrinter.format(compound))") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(FormatPrinter.format(compound))
        }
    }
}
