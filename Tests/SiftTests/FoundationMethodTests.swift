import Foundation
import Testing

@testable import Sift

/// `FUNCTION` and method keys with Foundation's methods of NSString and
/// NSNumber, each with the results Apple documents for edge input, and
/// the list of what is supported when a selector is not.
struct FoundationMethodTests {
    static func value(_ format: String, _ object: Value = .dictionary([:])) throws -> Bool {
        try Filter(format).evaluate(with: object)
    }

    /// NSString's documentation: each path method's examples.
    @Test(arguments: [
        ("/tmp/scratch.tiff", "lastPathComponent", "scratch.tiff"), ("/tmp/scratch", "lastPathComponent", "scratch"),
        ("/tmp/", "lastPathComponent", "tmp"), ("scratch///", "lastPathComponent", "scratch"), ("/", "lastPathComponent", "/"),
        ("/tmp/scratch.tiff", "pathExtension", "tiff"), (".scratch.tiff", "pathExtension", "tiff"),
        ("/tmp/scratch", "pathExtension", ""), ("/tmp/", "pathExtension", ""), ("/tmp/scratch..tiff", "pathExtension", "tiff"),
        ("/tmp/scratch.tiff", "stringByDeletingLastPathComponent", "/tmp"), ("/tmp/lock/", "stringByDeletingLastPathComponent", "/tmp"),
        ("/tmp/", "stringByDeletingLastPathComponent", "/"), ("/tmp", "stringByDeletingLastPathComponent", "/"),
        ("/", "stringByDeletingLastPathComponent", "/"), ("scratch.tiff", "stringByDeletingLastPathComponent", ""),
        ("/tmp/scratch.tiff", "stringByDeletingPathExtension", "/tmp/scratch"), ("/tmp/", "stringByDeletingPathExtension", "/tmp"),
        ("scratch.bundle/", "stringByDeletingPathExtension", "scratch"), ("scratch..tiff", "stringByDeletingPathExtension", "scratch."),
        (".tiff", "stringByDeletingPathExtension", ".tiff"), ("/", "stringByDeletingPathExtension", "/"),
    ])
    func pathMethods(_ path: String, _ method: String, _ expected: String) throws {
        let object: Value = ["p": .string(path), "e": .string(expected)]
        #expect(try Self.value("FUNCTION(p, '\(method)') == e", object), "\(path) \(method)")
        #expect(try Self.value("p.\(method) == e", object), "\(path).\(method)")
    }

    @Test func pathMethodsWithArguments() throws {
        for (path, component, expected) in [
            ("/tmp", "scratch.tiff", "/tmp/scratch.tiff"), ("/tmp/", "scratch.tiff", "/tmp/scratch.tiff"),
            ("/", "scratch.tiff", "/scratch.tiff"), ("", "scratch.tiff", "scratch.tiff"),
        ] {
            let object: Value = ["p": .string(path), "c": .string(component), "e": .string(expected)]
            #expect(try Self.value("FUNCTION(p, 'stringByAppendingPathComponent:', c) == e", object), "\(path)")
        }
        for (path, expected) in [
            ("/tmp/scratch.old", "/tmp/scratch.old.tiff"), ("/tmp/scratch.", "/tmp/scratch..tiff"), ("/tmp/", "/tmp.tiff"),
            ("scratch", "scratch.tiff"),
        ] {
            let object: Value = ["p": .string(path), "e": .string(expected)]
            #expect(try Self.value("FUNCTION(p, 'stringByAppendingPathExtension:', 'tiff') == e", object), "\(path)")
        }
        // Foundation answers nil where there is no last component.
        #expect(try Self.value("FUNCTION('/', 'stringByAppendingPathExtension:', 'tiff') == nil"))
        #expect(try Self.value("FUNCTION('', 'stringByAppendingPathExtension:', 'tiff') == nil"))
        #expect(try Self.value("FUNCTION('/tmp/scratch/', 'pathComponents') == {'/', 'tmp', 'scratch', '/'}"))
        #expect(try Self.value("FUNCTION('a/path', 'lastPathComponent') == 'path'"))
    }

    @Test func stringAndNumberMethods() throws {
        #expect(try Self.value("FUNCTION('a-b-c', 'stringByReplacingOccurrencesOfString:withString:', '-', '+') == 'a+b+c'"))
        #expect(try Self.value("FUNCTION('abc', 'stringByReplacingOccurrencesOfString:withString:', '', 'x') == 'abc'"))
        #expect(try Self.value("FUNCTION('a,b,,c', 'componentsSeparatedByString:', ',') == {'a', 'b', '', 'c'}"))
        #expect(try Self.value("FUNCTION('abc', 'componentsSeparatedByString:', '') == {'abc'}"))
        #expect(try Self.value("FUNCTION('héllo', 'substringFromIndex:', 1) == 'éllo'"))
        #expect(try Self.value("FUNCTION('héllo', 'substringToIndex:', 5) == 'héllo'"))
        #expect(try Self.value("FUNCTION('abc', 'caseInsensitiveCompare:', 'ABD') == -1"))
        #expect(try Self.value("FUNCTION('b', 'compare:', 'a') == 1"))
        #expect(try Self.value("FUNCTION(2, 'compare:', 2.0) == 0"))
        #expect(try Self.value("FUNCTION(2, 'isEqualToNumber:', 2.0) == YES"))
        #expect(try Self.value("FUNCTION('Straße', 'uppercaseString') == 'STRASSE'"))
        #expect(try Self.value("FUNCTION('12abc', 'intValue') == 12"))
        #expect(try Self.value("FUNCTION(1, 'stringValue') == '1'"))
        #expect(throws: EvaluationError.self) { try Self.value("FUNCTION('abc', 'substringFromIndex:', 4) == ''") }
    }

    /// A replacement that would make a string past 64 Mi units is refused
    /// before it is made (1 MB × 1 MB would be a terabyte).
    @Test func replacingIsBoundedBeforeItRuns() throws {
        let big = String(repeating: "a", count: 1 << 20)
        let object: Value = ["s": .string(big)]
        #expect {
            _ = try Filter("FUNCTION(s, 'stringByReplacingOccurrencesOfString:withString:', 'a', s) == ''").evaluate(with: object)
        } throws: { error in
            (error as? EvaluationError)?.code == .limit && "\(error)".contains("over the 67108864")
        }
        #expect(try Filter("FUNCTION(s, 'stringByReplacingOccurrencesOfString:withString:', 'a', 'bb').length == 2097152")
            .evaluate(with: object))
    }

    /// The bound is a setting of the filter, for replacing and appending
    /// alike, and a substitution keeps it.
    @Test func theResultLimitIsASetting() throws {
        let object: Value = ["s": "abcde"]
        var filter = try Filter("FUNCTION(s, 'stringByReplacingOccurrencesOfString:withString:', 'a', 'xyz') != nil")
        #expect(filter.maximumFunctionResultLength == Filter.defaultMaximumFunctionResultLength)
        #expect(try filter.evaluate(with: object))
        filter.maximumFunctionResultLength = 6
        #expect {
            _ = try filter.evaluate(with: object)
        } throws: { error in
            (error as? EvaluationError)?.code == .limit && "\(error)".contains("a string of 7 UTF-16 units, over the 6")
                && "\(error)".contains("Filter.maximumFunctionResultLength")
        }
        filter.maximumFunctionResultLength = 7
        #expect(try filter.evaluate(with: object))

        var appending = try Filter("FUNCTION(s, 'stringByAppendingString:', $T) != nil")
        appending.maximumFunctionResultLength = 8
        #expect(try appending.substituting(["T": "abc"]).evaluate(with: object))
        for format in ["FUNCTION(s, 'stringByAppendingPathComponent:', 'abc') != nil",
                       "FUNCTION(s, 'stringByAppendingPathExtension:', 'abc') != nil"] {
            var path = try Filter(format)
            path.maximumFunctionResultLength = 8
            #expect(throws: EvaluationError.self) { try path.evaluate(with: object) }
            path.maximumFunctionResultLength = 9
            #expect(try path.evaluate(with: object))
        }
        // A custom selector is held to the same bound.
        var selector = try Filter("s stringByAppendingString: 'abcd'")
        #expect { _ = try selector.evaluate(with: object) } throws: { error in
            (error as? EvaluationError)?.code == .typeMismatch
        }
        selector.maximumFunctionResultLength = 8
        #expect { _ = try selector.evaluate(with: object) } throws: { error in
            (error as? EvaluationError)?.code == .limit
        }
        #expect(throws: EvaluationError.self) {
            try appending.substituting(["T": "abcd"]).evaluate(with: object)
        }
    }

    @Test func unsupportedSelectorsListWhatIs() throws {
        do {
            _ = try Self.value("FUNCTION('abc', 'stringByTrimmingCharactersInSet:', 'x') == ''")
            Issue.record("an unsupported selector ran")
        } catch let error as EvaluationError {
            #expect(error.code == .unknownFunction)
            #expect(error.message.contains("unrecognized selector stringByTrimmingCharactersInSet:"))
            #expect(error.message.contains("stringByReplacingOccurrencesOfString:withString:"))
            #expect(error.message.contains("a number: "))
        }
    }

    /// Replacing can grow a string by the replacement at each unit: the
    /// estimate bounds it, so a budget of the estimate never runs out.
    @Test func replacingStaysWithinItsEstimate() throws {
        let filter = try Filter("FUNCTION(s, 'stringByReplacingOccurrencesOfString:withString:', 'a', w) == 'x'")
        for (s, w) in [(String(repeating: "a", count: 400), String(repeating: "bc", count: 200)), ("a", "b"), ("", "")] {
            let object: Value = ["s": .string(s), "w": .string(w)]
            let units = filter.costEstimate.units(forInputSize: WorkBudget.size(object, cap: .max))
            #expect(!CostEstimateTests.runsOut(filter, object, budget: units), "\(s.count) \(w.count)")
        }
    }
}
