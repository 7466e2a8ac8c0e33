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

    /// A grouping by one string key finds most records' groups by the
    /// key's bytes, with the groups of decoding: keys are equal when their
    /// scalars are, so `é` written as is and as an escape meet, `e` and
    /// U+0301 is a group of its own; strings and numbers stay apart; and
    /// past the cache's size (more than 32 keys) the groups are the same.
    @Test func stringKeysByTheirBytesGroupAsDecoding() throws {
        let spellings = ["caf\u{E9}", "cafe\u{301}", #"caf\u00e9"#, "Caf\u{E9}", "", "30"]
        var records: [String] = []
        for (i, k) in spellings.enumerated() { records.append(#"{"k":"\#(k)","n":\#(i)}"#) }
        records += [#"{"k":30,"n":1}"#, #"{"k":null,"n":2}"#, #"{"n":3}"#]
        for distinct in [4, 80] {
            var all = records
            for i in 0..<400 { all.append(#"{"k":"key \#(i % distinct)","n":\#(i)}"#) }
            all += records.reversed()
            var request = FetchSpecification(groupBy: ["k"])
            try FetchSelection("k, c = count:(SELF), s = sum:(n)").apply(to: &request)
            let reader = GroupedRecordReader(request)
            var direct = try GroupedFetchAccumulator(request)
            var decoded = try GroupedFetchAccumulator(request)
            for record in all {
                let bytes = Array(record.utf8)
                try bytes.withUnsafeBytes { try reader.add(jsonUTF8: $0, to: &direct) }
                try decoded.add(try JSONValue(parsing: record).predicateValue)
            }
            let results = try direct.results()
            #expect(results == (try decoded.results()), "\(distinct) keys")
            // café as is and escaped: 2 × 2 records, n = 0 and 2.
            #expect(results.contains(.dictionary(["k": "caf\u{E9}", "c": 4, "s": 4])), "\(results.prefix(8))")
            #expect(results.contains(.dictionary(["k": "cafe\u{301}", "c": 2, "s": 2])), "\(results.prefix(8))")
            // Five strings, 30, and nil (null and missing alike).
            #expect(results.count == distinct + 7)
        }
    }

    /// A ``GroupedRecordFilter`` tests and groups each record in one scan,
    /// with the answers, errors and groups of testing it with the compiled
    /// filter and then adding it through a reader.
    @Test func oneScanTestsAndGroupsAsTwoSteps() throws {
        let filters = [
            "TRUEPREDICATE", "n > 2", "o.x > 0", "k == 'b' OR o.y == 'p'", "o == nil", "SELF.n > 1", "t.@count > 0",
            "n + 1 > 0", "%K == 4",
        ]
        let selections = [
            ("k", "k, c = count:(SELF), s = sum:(n), hi = max:(o.y), lo = min:(o.x)"),
            ("o.y", "o.y, c = count:(o.x), a = average:(n)"),
            ("k,o.x", "k, o.x, c = count:(o.y), s = sum:(n)"),
            ("k", "k, w = max:(SELF.n), t = sum:(t.@count)"),
            ("o", "o, c = count:(SELF)"),
        ]
        for (keys, items) in selections {
            var request = FetchSpecification(groupBy: keys.split(separator: ",").map(String.init))
            try FetchSelection(items).apply(to: &request)
            let reader = GroupedRecordReader(request)
            for text in filters {
                // (%K: the non-ASCII key café, which the scan does not read.)
                let filter = text.contains("%K") ? try Filter(text, "café") : try Filter(text)
                let joint = GroupedRecordFilter(filter, grouping: request)
                let compiled = filter.compiled()
                var one = try GroupedFetchAccumulator(request)
                var two = try GroupedFetchAccumulator(request)
                var oneWay: [String] = []
                var twoWays: [String] = []
                for record in Self.records {
                    let bytes = Array(record.utf8)
                    bytes.withUnsafeBytes { raw in
                        do {
                            switch try joint.evaluate(jsonUTF8: raw, addingTo: &one) {
                            case .rejected: oneWay.append("no")
                            case .added: oneWay.append("yes")
                            case .failed(let e): oneWay.append("grouping: \(e)")
                            }
                        } catch {
                            oneWay.append("record: \(error)")
                        }
                        do {
                            if try compiled.evaluate(jsonUTF8: raw) {
                                do {
                                    try reader.add(jsonUTF8: raw, to: &two)
                                    twoWays.append("yes")
                                } catch let e as EvaluationError {
                                    twoWays.append("grouping: \(e)")
                                }
                            } else {
                                twoWays.append("no")
                            }
                        } catch {
                            twoWays.append("record: \(error)")
                        }
                    }
                }
                #expect(oneWay == twoWays, "\(text) with \(items)")
                #expect(try one.results() == two.results(), "\(text) with \(items)")
                #expect(oneWay.contains("yes") || text == "%K == 4", "\(text) with \(items) matched nothing")
            }
        }
    }
}
