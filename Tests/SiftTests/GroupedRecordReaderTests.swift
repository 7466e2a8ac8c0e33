import Foundation
import Sift
import Testing

/// A grouped fetch fed records read by a ``GroupedRecordReader`` (only the
/// keys it needs, scanned from the bytes) gives what it gives fed the
/// decoded records.
struct GroupedRecordReaderTests {
    static let records = [
        #"{"k":"a","n":1,"o":{"x":2.5,"y":"p"},"t":[1,2]}"#,
        #"{"k":"a","n":2,"o":null,"t":[]}"#,
        #"{"k":null,"n":3,"o":{"x":-1},"café":4}"#,
        #"{"n":4,"o":{"x":1e300,"y":"é"},"k":"b","z":{"deep":[{"a":1}]}}"#,
        #"{"k":"b","n":-9223372036854775808,"o":{"y":"q"}}"#,
        #"{"k":"b","n":9223372036854775807,"o":{"x":0},"t":[3]}"#,
        #"{"k":"\u0062","n":5}"#,
        #"[1,2]"#,
        #"{"k":"c","n":6,"o":"text"}"#,
        #"{"k":"c","n":7,"o":[{"x":1,"y":"r"}]}"#,
        #"{"k":["c"],"n":8}"#,
        #"{"k":"d","n":NaN}"#,
        #"{"k":"d","n":2.5,"o":{"x":null,"y":null}}"#,
    ]

    @Test func aReaderFeedsTheSameGroupsAsDecoding() throws {
        let selections = [
            ("k", "k, c = count:(SELF), s = sum:(n), hi = max:(o.y), lo = min:(o.x)"),
            ("o.y", "o.y, c = count:(o.x), a = average:(n)"),
            ("k", "k, t = sum:(t.@count), c = count:(%K)"),
            ("k", "k, w = max:(SELF.n)"),
            ("k,o.x", "k, o.x, c = count:(o.y), s = sum:(n), a = average:(n), lo = min:(n)"),
        ]
        for (keys, items) in selections {
            var request = FetchSpecification(groupBy: keys.split(separator: ",").map(String.init))
            if items.contains("%K") {
                request.properties = ["k"]
                request.expressions = [
                    try ExpressionDescription(name: "t", format: "sum:(t.@count)"),
                    try ExpressionDescription(name: "c", format: "count:(%K)", "café"),
                ]
            } else {
                try FetchSelection(items).apply(to: &request)
            }
            let reader = GroupedRecordReader(request)
            var read = try GroupedFetchAccumulator(request)
            var decoded = try GroupedFetchAccumulator(request)
            var direct = try GroupedFetchAccumulator(request)
            var directFailure: String?
            var readFailure: String?
            var decodedFailure: String?
            for record in Self.records {
                let bytes = Array(record.utf8)
                do {
                    try read.add(try bytes.withUnsafeBytes { try reader.value(jsonUTF8: $0) })
                } catch {
                    readFailure = readFailure ?? "\(error)"
                }
                do {
                    try bytes.withUnsafeBytes { try reader.add(jsonUTF8: $0, to: &direct) }
                } catch {
                    directFailure = directFailure ?? "\(error)"
                }
                do {
                    try decoded.add(try JSONValue(parsing: record).predicateValue)
                } catch {
                    decodedFailure = decodedFailure ?? "\(error)"
                }
            }
            #expect(readFailure == decodedFailure, "\(items)")
            #expect(directFailure == decodedFailure, "\(items)")
            #expect(try read.results() == decoded.results(), "\(items)")
            #expect(try direct.results() == decoded.results(), "\(items)")
        }
    }
}
