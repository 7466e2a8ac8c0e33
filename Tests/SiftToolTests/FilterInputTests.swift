import Foundation
import Testing

@testable import SiftTool

/// How `sift filter` and the REPL's `:load` read their input: long lines,
/// bytes that are not UTF-8, big numbers, member names, leading blanks.
struct FilterInputTests {
    let tool = CommandLineTests()

    static func blanks(_ count: Int) -> Data { Data(repeating: UInt8(ascii: " "), count: count) }

    @Test func aLongLineIsReadInLinearTime() throws {
        // 32 MiB of blanks, then a record, with no newline: each byte is
        // looked at once (before, the whole line was searched again for
        // each 64 KiB read, which took minutes).
        let spaced = try tool.sift(["filter", "a == 1"], bytes: Self.blanks(32 << 20) + Data(#"{"a":1}"#.utf8))
        #expect(spaced.stderr == "")
        #expect(spaced.stdout == "{\"a\":1}\n")
        // A 16 MiB record on one line.
        var long = Data(#"{"b":1}"#.utf8 + [0x0A])
        long += Data(#"{"a":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: 16 << 20)
        long += Data(#"","b":2}"#.utf8)
        let counted = try tool.sift(["filter", "b == 2 AND a.length == %@", "--arg", "\(16 << 20)", "--count"], bytes: long)
        #expect(counted.stderr == "")
        #expect(counted.stdout == "1\n")
    }

    @Test func blanksDoNotCountTowardTheRecordSizeLimit() throws {
        let input = Self.blanks(1 << 20) + Data(#"{"a":1}"#.utf8 + [0x0A]) + Self.blanks(1 << 20) + Data("\n\n".utf8)
            + Self.blanks(1 << 20) + Data(#"{"a":2}"#.utf8)
        let run = try tool.sift(["filter", "a > 0", "--max-record-size", "16"], bytes: input)
        #expect(run.stderr == "")
        #expect(run.stdout == "{\"a\":1}\n{\"a\":2}\n")
    }

    @Test func aRecordLongerThanTheLimitIsRefusedWithItsLine() throws {
        let input = "{\"a\":1}\n\n  {\"a\":\"" + String(repeating: "x", count: 2000) + "\"}\n{\"a\":2}\n"
        let run = try tool.sift(["filter", "a IN {1, 2}", "--max-record-size", "1000"], input: input)
        #expect(run.status == 2)
        #expect(run.stderr == "error: the record at line 3 is longer than the limit of 1000 bytes (--max-record-size)\n")
        // Also when the line does not end before the input does.
        let last = try tool.sift(["filter", "a IN {1, 2}", "--max-record-size", "100"], input: String(input.dropLast(9)))
        #expect(last.stderr.contains("the record at line 3 is longer than the limit of 100 bytes"))
        #expect(try tool.sift(["filter", "a IN {1, 2}", "--max-record-size", "2100"], input: input).stdout
            == "{\"a\":1}\n{\"a\":2}\n")
        #expect(try tool.sift(["filter", "a IN {1, 2}", "--max-record-size", "0"], input: input).status == 2)
    }

    @Test func bytesThatAreNotUTF8AreAnErrorWithLineAndColumn() throws {
        var lines = Data(#"{"a":"ok"}"#.utf8 + [0x0A])
        lines += Data(#"  {"a":"é"#.utf8 + [0xFF])
        lines += Data(#""}"#.utf8 + [0x0A])
        let run = try tool.sift(["filter", "a == %@", "--arg", #""\uFFFD""#], bytes: lines)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "error: invalid JSON at line 2, column 10: invalid UTF-8 in string\n")
        var array = Data("\n [{\"a\":\"ok\"},\n  {\"a\":\"".utf8 + [0xC3])
        array += Data("\"}]".utf8)
        let arrayRun = try tool.sift(["filter", "TRUEPREDICATE"], bytes: array)
        #expect(arrayRun.stderr == "error: invalid JSON at line 3, column 9: invalid UTF-8 in string\n")
    }

    @Test func bigNumbersAreValuesAndPrintAsTheyWereWritten() throws {
        let hundred = "1" + String(repeating: "2345678901", count: 10)
        let record = #"{"id":123456789012345678901234567890,"n":\#(hundred),"pi":3.14159265358979323846264,"tiny":1e-400,"x":0.5}"#
        let all = try tool.sift(["filter", "TRUEPREDICATE"], input: record)
        #expect(all.stdout == record + "\n")
        let exact = try tool.sift(["filter", "id == %@", "--arg", "123456789012345678901234567890"], input: record)
        #expect(exact.stdout == record + "\n")
        let other = try tool.sift(["filter", "id == %@", "--arg", "123456789012345678901234567891"], input: record)
        #expect(other.status == 1, "integers beyond Int compare exactly, not as doubles")
        #expect(try tool.sift(["filter", "n > 1e99 AND tiny == 0 AND pi > 3.14"], input: record).status == 0)
        let huge = try tool.sift(["filter", "TRUEPREDICATE"], input: "{\"a\":1}\n{\"a\":[1, 1e400]}\n")
        #expect(huge.status == 2)
        #expect(huge.stderr == "error: invalid JSON at line 2, column 10: number 1e400 is beyond the range of a double\n")
    }

    /// A number literal beyond 64 bits is the same number as in the record
    /// (it was a double, so `a == 18446744073709551616` matched nothing and
    /// `a < 18446744073709551616` matched), and prints back as written.
    @Test func integerLiteralsBeyond64BitsMatchTheRecord() throws {
        let record = #"{"a":18446744073709551616,"b":-99999999999999999999999999999999999999}"#
        let equal = try tool.sift(["filter", "a == 18446744073709551616 AND b == -99999999999999999999999999999999999999"],
                                  input: record)
        #expect(equal.status == 0)
        #expect(equal.stdout == record + "\n")
        #expect(try tool.sift(["filter", "a < 18446744073709551616"], input: record).status == 1)
        #expect(try tool.sift(["filter", "a == 18446744073709551617 OR b < -99999999999999999999999999999999999999"],
                              input: record).status == 1)
        let format = try tool.sift(["format", "a == 18446744073709551616 AND b > -99999999999999999999999999999999999999"])
        #expect(format.stdout == "a == 18446744073709551616 AND b > -99999999999999999999999999999999999999\n")
    }

    @Test func memberNames() throws {
        // café precomposed and decomposed: two keys to JSONSerialization,
        // one to a Swift dictionary, so refused rather than merged.
        let run = try tool.sift(["filter", "TRUEPREDICATE"], input: "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}\n")
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(#"error: invalid JSON at line 1, column 11: member name "cafe\u{301}" is canonically equivalent"#))
        // A repeated name keeps its last value, and the record prints as it was read.
        let repeated = try tool.sift(["filter", "a == 2"], input: #"{"a":1,"b":0,"a":2}"#)
        #expect(repeated.stdout == #"{"a":1,"b":0,"a":2}"# + "\n")
    }

    /// A line is read from its bytes for the keys the predicate reads
    /// only; the rest is still checked as decoding checks it, and an error
    /// there names its line and column, with --count too.
    @Test func errorsWhereThePredicateDoesNotReadNameTheirPlace() throws {
        let input = #"""
            {"a":1,"b":"x"}
              {"a":2,"b":["\ud800"]}
            {"a":3,"b":{"c":1e400}}
            {"a":4,"b":{"caf\#u{E9}":1,"cafe\#u{301}":2}}
            {"a":5,"b":"\#u{E9}"}

            """#
        let stop = try tool.sift(["filter", "a > 0", "--count"], input: input)
        #expect(stop.status == 2)
        #expect(stop.stderr == "error: invalid JSON at line 2, column 22: unpaired surrogate\n")
        let skip = try tool.sift(["filter", "a > 0", "--count", "--on-error", "skip"], input: input)
        #expect(skip.stdout == "2\n")
        #expect(skip.stderr.hasPrefix("""
            skipped: invalid JSON at line 2, column 22: unpaired surrogate
            skipped: invalid JSON at line 3, column 17: number 1e400 is beyond the range of a double
            skipped: invalid JSON at line 4, column 22: member name "cafe\\u{301}" is canonically equivalent
            """))
        #expect(skip.stderr.hasSuffix("skipped 3 records (--on-error skip)\n"))
        let printed = try tool.sift(["filter", "a == 5", "--on-error", "skip"], input: input)
        #expect(printed.stdout == "{\"a\":5,\"b\":\"\u{E9}\"}\n")
    }

    @Test func anArrayIsFoundAfterAnyNumberOfBlanks() throws {
        let lead = Data(String(repeating: " \n\t\r\n", count: 40_000).utf8)  // 200 KB, 80,000 lines
        let array = try tool.sift(["filter", "a == 2"], bytes: lead + Data("  [{\"a\":1},\n{\"a\":2}]\n".utf8))
        #expect(array.stderr == "")
        #expect(array.stdout == "{\"a\":2}\n")
        let broken = try tool.sift(["filter", "a == 2"], bytes: lead + Data("  [{\"a\":1},\n{\"a\":2,}]\n".utf8))
        #expect(broken.stderr == "error: invalid JSON at line 80002, column 8: expected a member name\n")
        let lines = try tool.sift(["filter", "a == 2"], bytes: lead + Data("  {\"a\":1}\n{\"a\":2,}\n".utf8))
        #expect(lines.stderr == "error: invalid JSON at line 80002, column 8: expected a member name\n")
    }

    @Test func theREPLLoadsFilesWithTheSameReader() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let spaced = dir.appendingPathComponent("spaced.json")
        try (Self.blanks(100_000) + Data(#"[{"id":123456789012345678901234567890}, {"id":2}]"#.utf8)).write(to: spaced)
        let dataset = try Dataset.load(path: spaced.path)
        let records = try #require(dataset.collections.first)
        #expect((0..<records.count).map(records.row) == [["id": .decimal(Decimal(string: "123456789012345678901234567890")!)], ["id": 2]])
        let invalid = dir.appendingPathComponent("invalid.jsonl")
        var bytes = Data(#"{"a":1}"#.utf8 + [0x0A])
        bytes += Data(#"{"a":""#.utf8 + [0xFF])
        bytes += Data(#""}"#.utf8)
        try bytes.write(to: invalid)
        #expect(throws: CommandFailure.self) { try Dataset.load(path: invalid.path) }
        do {
            _ = try Dataset.load(path: invalid.path)
        } catch let failure as CommandFailure {
            #expect(failure.message == invalid.path + ": invalid JSON at line 2, column 7: invalid UTF-8 in string")
        }
    }
}
