import Foundation
import Testing

@testable import Sift

/// Key paths of 100,000 keys through every route that takes one, on a
/// thread with a 512 KiB stack (Apple's secondary threads): parsed,
/// checked against an allow-list, substituted from `%K.%K`, compiled,
/// evaluated on values and on raw JSON, printed, encoded and decoded, and
/// freed, never a stack overflow. (Compiling recursed once for each key
/// and crashed from 1,400 keys.)
struct HugeKeyPathTests {
    static let keys = 100_000

    @Test func longKeyPathsOnASmallStack() throws {
        let outcome = OnThread.run(stackSize: 512 * 1024) { () -> [String] in
            var problems: [String] = []
            let path = Array(repeating: "a", count: Self.keys).joined(separator: ".")
            do {
                let parsed = try Filter(path + " == nil", options: ParseOptions(maximumLength: 1 << 20))
                try PredicatePolicy.untrusted(keyPaths: ["a.*"]).check(parsed)
                let half = Array(repeating: "a", count: Self.keys / 2).joined(separator: ".")
                let substituted = try Filter("%K.%K == nil", half, half)
                for filter in [parsed, substituted] {
                    let compiled = filter.compiled()
                    if try !compiled.evaluate(with: ["b": 1]) { problems.append("nil on values") }
                    let record = Array("{\"b\":1}".utf8)
                    let raw = try record.withUnsafeBytes { try compiled.evaluate(jsonUTF8: $0) }
                    if !raw { problems.append("nil on raw JSON") }
                    if filter.format.utf8.count < 2 * Self.keys { problems.append("printed short") }
                    let data = try JSONEncoder().encode(filter.predicate)
                    let decoded = try JSONDecoder().decode(PredicateNode.self, from: data)
                    if try !Filter(decoded).compiled().evaluate(with: ["b": 1]) { problems.append("decoded") }
                }
            } catch {
                problems.append("\(error)")
            }
            return problems
        }
        #expect(outcome == [])
    }
}
