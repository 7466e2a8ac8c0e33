import Foundation
import Testing

@testable import SiftTool

/// `sift filter` reading its input in chunks on several threads: records
/// across chunk boundaries, arrays streamed element by element, output in
/// input order and the same bytes whatever the number of threads, errors in
/// the middle of a parallel run.
struct ChunkedFilterTests {
    let tool = CommandLineTests()

    /// Generated records of uneven lengths, with strings that hold the
    /// characters the array scanner follows (quotes, backslashes, brackets,
    /// commas), non-ASCII text and nested values: `i` is the record's index.
    static func records(_ count: Int, seed: UInt64 = 1) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = [#"a\"b"#, "],[", "{x}", #"\\"#, ",", "é", "ÿ̈", #"\u00e9"#, " ", "tab\\t", "z"]
        return (0..<count).map { i in
            let text = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            let tags = (0..<next(4)).map { _ in "\"\(pieces[next(pieces.count)])\"" }.joined(separator: ",")
            let author = next(3) == 0 ? "null" : #"{"name":"\#(text)","n":[1,[2,{"k":[]}]]}"#
            return #"{"i":\#(i),"s":"\#(text)","tags":[\#(tags)],"author":\#(author),"x":\#(next(1000))e-2}"#
        }
    }

    /// JSON Lines with blank lines, blanks before and after records and a
    /// carriage return before some newlines.
    static func lines(_ records: [String]) -> String {
        records.enumerated().map { n, r in
            switch n % 5 {
            case 0: return r
            case 1: return "  \t" + r + " "
            case 2: return r + "\r"
            case 3: return "\n" + r
            default: return r + "\n   "
            }
        }.joined(separator: "\n")
    }

    /// The same records as a pretty-printed array: elements on several
    /// lines, so that JSON Lines output puts each back on one.
    static func prettyArray(_ records: [String]) -> String {
        "[\n" + records.map { "  " + $0.replacingOccurrences(of: #","i""#, with: ",\n    \"i\"") }
            .map { $0.replacingOccurrences(of: #"{"i""#, with: "{\n    \"i\"") }.joined(separator: ",\n") + "\n]\n"
    }

    /// The newlines of a chunk, counted eight bytes at a time, are every
    /// 0x0A byte and nothing else (bytes next to it in value or bits, at
    /// every offset and length).
    @Test func newlinesAreCountedExactly() {
        var rng = SystemRandomNumberGenerator()
        let near: [UInt8] = [0x0A, 0x0B, 0x09, 0x8A, 0x0A, 0x00, 0xFF, 0x7F, 0x80, 0x2A, 0x0A]
        for length in [0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 8191, 8192, 8193, 9000] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in near.randomElement(using: &rng)! }
                let expected = bytes.filter { $0 == 0x0A }.count
                for start in 0..<min(length, 9) {
                    let counted = bytes.withUnsafeBufferPointer {
                        ChunkReader.newlines(in: UnsafeBufferPointer(rebasing: $0[start...]))
                    }
                    #expect(counted == bytes[start...].filter { $0 == 0x0A }.count)
                }
                #expect(bytes.withUnsafeBufferPointer { ChunkReader.newlines(in: $0) } == expected)
            }
        }
        // Newlines only: as many as a count per lane holds, and more.
        for length in [8160, 8192, 20_000] {
            let all = [UInt8](repeating: 0x0A, count: length)
            #expect(all.withUnsafeBufferPointer { ChunkReader.newlines(in: $0) } == length)
        }
    }

    @Test func recordsAcrossChunkBoundaries() throws {
        let records = Self.records(300)
        let expected = records.enumerated().filter { $0.offset % 7 == 3 || $0.offset > 290 }.map { $0.element + "\n" }
            .joined()
        let predicate = "i IN %@ OR i > 290"
        let wanted = "[" + (0..<300).filter { $0 % 7 == 3 }.map(String.init).joined(separator: ",") + "]"
        let input = Self.lines(records)
        for chunk in ["1", "2", "7", "61", "500", "100000"] {
            for jobs in ["1", "3"] {
                let run = try tool.sift(
                    ["filter", predicate, "--arg", wanted, "--chunk-size", chunk, "--jobs", jobs], input: input)
                #expect(run.stderr == "", "chunk size \(chunk), \(jobs) jobs")
                #expect(run.stdout == expected, "chunk size \(chunk), \(jobs) jobs")
            }
        }
    }

    @Test func arraysAreStreamedElementByElement() throws {
        let records = Self.records(300, seed: 7)
        let expected = records.enumerated().filter { $0.offset % 7 == 3 || $0.offset > 290 }.map { $0.element + "\n" }
            .joined()
        let wanted = "[" + (0..<300).filter { $0 % 7 == 3 }.map(String.init).joined(separator: ",") + "]"
        let pretty = Self.prettyArray(records)
        let compact = "[" + records.joined(separator: ",") + "]"
        for input in [pretty, compact] {
            for chunk in ["1", "13", "256", "100000"] {
                for jobs in ["1", "4"] {
                    let run = try tool.sift(
                        ["filter", "i IN %@ OR i > 290", "--arg", wanted, "--chunk-size", chunk, "--jobs", jobs],
                        input: input)
                    #expect(run.stderr == "", "chunk size \(chunk), \(jobs) jobs")
                    #expect(run.stdout == expected, "chunk size \(chunk), \(jobs) jobs")
                }
            }
        }
        // As a JSON array, the elements keep their bytes, line breaks included.
        let json = try tool.sift(["filter", "i < 2", "--output", "json", "--chunk-size", "64"], input: pretty)
        let elements = pretty.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix(4)
        #expect(json.stdout == "[\n" + elements.joined(separator: "\n").dropLast() + "\n]\n")
        // Each element is a record of its own for --max-record-size: the
        // array is larger than the limit, its elements are not.
        let longest = records.map { $0.utf8.count }.max()!
        let limited = try tool.sift(["filter", "i >= 0", "--count", "--max-record-size", "\(longest)"], input: compact)
        #expect(limited.stdout == "300\n")
        #expect(limited.stderr == "")
    }

    /// The elements before an error are evaluated and printed before the
    /// rest of the array is read: an array cut short still gives its first
    /// matches with --limit, where reading it whole was an error.
    @Test func anArrayIsNotReadWhole() throws {
        let records = Self.records(2000, seed: 3)
        let whole = Data(("[" + records.joined(separator: ",\n")).utf8)
        let input = whole.prefix(whole.count - 10)
        let first = try tool.sift(["filter", "i < 3", "--limit", "2", "--chunk-size", "4096"], bytes: input)
        #expect(first.stderr == "")
        #expect(first.status == 0)
        #expect(first.stdout == records[0] + "\n" + records[1] + "\n")
        // Read to its end, the array's error comes after every match.
        let all = try tool.sift(["filter", "i < 3", "--chunk-size", "4096"], bytes: input)
        #expect(all.status == 2)
        #expect(all.stdout == records[0...2].map { $0 + "\n" }.joined())
        #expect(all.stderr.hasPrefix("error: invalid JSON at line 2000, column "))
    }

    @Test func oneOrSeveralJobsPrintTheSameBytes() throws {
        let records = Self.records(3000, seed: 11)
        for input in [Self.lines(records), Self.prettyArray(records)] {
            for arguments in [
                ["x < 5"], ["x < 5", "--output", "json"], ["x < 5", "--count"], ["ANY tags == ','", "--limit", "40"],
                ["author.name CONTAINS 'é'", "--sort", "x DESC, i"],
            ] {
                let one = try tool.sift(["filter"] + arguments + ["--jobs", "1", "--chunk-size", "1000"], input: input)
                let four = try tool.sift(["filter"] + arguments + ["--jobs", "4", "--chunk-size", "1000"], input: input)
                let defaults = try tool.sift(["filter"] + arguments, input: input)
                #expect(one.status == 0, "\(arguments)")
                #expect(!one.stdout.isEmpty, "\(arguments)")
                #expect(one.stdout == four.stdout, "\(arguments)")
                #expect(one.stdout == defaults.stdout, "\(arguments)")
                #expect(one.stderr == "" && four.stderr == "", "\(arguments)")
            }
        }
    }

    /// Bad records in the middle of a parallel run: with stop, the output
    /// before the error is exactly the sequential run's; with skip, every
    /// bad record is named in order.
    @Test func errorsInTheMiddleOfAParallelRun() throws {
        var records = Self.records(5000, seed: 5)
        records[1234] = #"{"i":1234,"x":"#
        records[2345] = #"{"i":2345,"x":"text"}"#
        records[4000] = #"{"i":4000,"x":1e400}"#
        let input = Self.lines(records)
        // (Counted in bytes: "\r\n" is one Character.)
        let lineOf = { (i: Int) in input[..<input.range(of: "{\"i\":\(i),")!.lowerBound].utf8.filter { $0 == 0x0A }.count + 1 }
        let runs = try ["1", "2", "4"].map { jobs in
            try tool.sift(["filter", "x < 1", "--jobs", jobs, "--chunk-size", "3000"], input: input)
        }
        let x = { (record: String) in Double(record.components(separatedBy: #""x":"#).last!.dropLast())! }
        let expected = records[..<1234].filter { x($0) < 1 }.map { $0 + "\n" }.joined()
        for run in runs {
            #expect(run.status == 2)
            #expect(run.stdout == expected)
            #expect(run.stderr == "error: invalid JSON at line \(lineOf(1234)), column 15: unexpected end of JSON\n")
        }
        let skips = try ["1", "4"].map { jobs in
            try tool.sift(["filter", "x < 1", "--jobs", jobs, "--chunk-size", "3000", "--on-error", "skip"], input: input)
        }
        #expect(skips[0].stdout == skips[1].stdout)
        #expect(skips[0].stderr == skips[1].stderr)
        #expect(skips[0].stderr.split(separator: "\n").map(String.init) == [
            "skipped: invalid JSON at line \(lineOf(1234)), column 15: unexpected end of JSON",
            "skipped: line \(lineOf(2345)): cannot compare a string with an integer (1:1)",
            "skipped: invalid JSON at line \(lineOf(4000)), column 15: number 1e400 is beyond the range of a double",
            "skipped 3 records (--on-error skip)",
        ])
    }

    /// --limit stops reading once the last record it prints is found: a
    /// bad record after it is not reached.
    @Test func limitStopsReading() throws {
        let input = "{\"a\":1}\n{\"a\":2}\n{\"a\":\"x\"}\n{\"a\":3}\n"
        for jobs in ["1", "3"] {
            let run = try tool.sift(["filter", "a > 0", "--limit", "2", "--jobs", jobs, "--chunk-size", "8"], input: input)
            #expect(run.stderr == "")
            #expect(run.status == 0)
            #expect(run.stdout == "{\"a\":1}\n{\"a\":2}\n")
            let counted = try tool.sift(["filter", "a > 0", "--limit", "2", "--count", "--jobs", jobs], input: input)
            #expect(counted.stdout == "2\n")
        }
        let zero = try tool.sift(["filter", "a > 1", "--limit", "0"], input: input)
        #expect(zero.status == 0 && zero.stdout == "" && zero.stderr == "")
    }

    /// The errors an array's own syntax can have, at their line and column,
    /// as reading the array whole reported them.
    @Test func errorsInAnArrayAreWhereTheyWere() throws {
        let cases: [(String, String)] = [
            ("[1,]", "line 1, column 4: unexpected character"),
            ("[,1]", "line 1, column 2: unexpected character"),
            ("[1 2]", "line 1, column 4: expected ',' or ']'"),
            ("[1,\n 2", "line 2, column 3: expected ',' or ']'"),
            ("[{\"a\":[1}]", "line 1, column 9: expected ',' or ']'"),
            ("[1}", "line 1, column 3: expected ',' or ']'"),
            ("[1]\n x", "line 2, column 2: unexpected text after the value"),
            ("[", "line 1, column 2: unexpected end of JSON"),
            ("[{\"a\":\"x,]", "line 1, column 11: unterminated string"),
            ("[\"é\",\"é\" 1]", "line 1, column 10: expected ',' or ']'"),
        ]
        for (input, error) in cases {
            for chunk in ["1", "100"] {
                let run = try tool.sift(["filter", "TRUEPREDICATE", "--chunk-size", chunk], input: input)
                #expect(run.status == 2, "\(input)")
                #expect(run.stderr == "error: invalid JSON at \(error)\n", "\(input)")
            }
        }
        for input in ["[]", " [ \n ] \n", "[[]]"] {
            #expect(try tool.sift(["filter", "TRUEPREDICATE", "--chunk-size", "1"], input: input).stderr == "")
        }
        // An element over --max-record-size is refused with its line, and
        // skipped; the others are read.
        let long = "[{\"a\":1},\n {\"a\":\"" + String(repeating: "x", count: 3000) + "\"},\n{\"a\":3}]"
        let stop = try tool.sift(["filter", "a > 0", "--max-record-size", "100", "--chunk-size", "64"], input: long)
        #expect(stop.status == 2)
        #expect(stop.stdout == "{\"a\":1}\n")
        #expect(stop.stderr == "error: the record at line 2 is longer than the limit of 100 bytes (--max-record-size)\n")
        let skip = try tool.sift(
            ["filter", "a > 0", "--max-record-size", "100", "--chunk-size", "64", "--on-error", "skip"], input: long)
        #expect(skip.stdout == "{\"a\":1}\n{\"a\":3}\n")
        #expect(skip.stderr.hasPrefix("skipped: the record at line 2 is longer than the limit of 100 bytes"))
    }

    @Test func jobsAndChunkSizeAreChecked() throws {
        #expect(try tool.sift(["filter", "a > 0", "--jobs", "0"], input: "{}").status == 2)
        #expect(try tool.sift(["filter", "a > 0", "--chunk-size", "0"], input: "{}").status == 2)
    }
}
