import Foundation
import Sift
import SiftSQL
import SiftTestSupport
import Testing

/// Key paths built from `%K` pieces, and from `$VARIABLE` pieces once
/// substituted, lower to the SQL of the plainly spelled key path; an
/// unsubstituted variable piece is a lowering error at the variable.
struct KeyPathPieceSQLTests {
    let schema = Library.schema

    @Test func testKeySpecifierPiecesLowerAsThePlainKeyPath() throws {
        let forms: [(String, [any FormatArgumentConvertible], String)] = [
            ("%K.%K == %@", ["author", "name", "Ann"], "author.name == 'Ann'"),
            ("ANY %K.%K == %@", ["chapters", "book.title", "x"], "ANY chapters.book.title == 'x'"),
            ("ANY %K.%K = %@", ["chapters", "name", "x"], "ANY chapters.name == 'x'"),
            ("SUBQUERY(%K, $t, $t.%K == %@).@count > 0", ["chapters", "pages", 3], "SUBQUERY(chapters, $t, $t.pages == 3).@count > 0"),
            (
                "SUBQUERY(%K, $a, ANY $a.%K.%K IN %@).@count > 0", ["chapters", "book", "tags.name", ["x", "y"]],
                "SUBQUERY(chapters, $a, ANY $a.book.tags.name IN {'x', 'y'}).@count > 0"
            ),
            ("%K.%K.%K == %@", ["author", "name", "x", "Ann"], "author.name.x == 'Ann'"),
        ]
        for (format, arguments, plain) in forms {
            let bound = try Filter(format, arguments: arguments)
            #expect(try bound == Filter(plain), Comment(rawValue: format))
            for dialect in [Dialect.sqlite, .postgreSQL] {
                let expected = Result { try Filter(plain).sqlStatement(schema, dialect) }
                let got = Result { try bound.sqlStatement(schema, dialect) }
                switch (got, expected) {
                case (.success(let a), .success(let b)):
                    #expect(a.sql == b.sql, Comment(rawValue: format))
                    #expect(a.bindings == b.bindings, Comment(rawValue: format))
                case (.failure(let a as SQLLoweringError), .failure(let b as SQLLoweringError)):
                    // The same error, at the specifiers instead of the keys.
                    #expect(a.code == b.code, Comment(rawValue: format))
                    #expect(a.message == b.message, Comment(rawValue: format))
                default:
                    Issue.record("\(format): \(got) but the plain spelling gives \(expected)")
                }
            }
        }
        // The forms of shipping apps have a SQL form (only the last, an
        // attribute's key, is an error).
        #expect(throws: Never.self) { try Filter(forms[4].0, arguments: forms[4].1).sqlStatement(schema, .sqlite) }
    }

    @Test func testSubstitutedVariablePiecesLowerAsThePlainKeyPath() throws {
        let forms: [(String, [String: any ValueConvertible], String)] = [
            ("author.$k == 'Ann'", ["k": "name"], "author.name == 'Ann'"),
            ("SELF.$k.name == 'Ann'", ["k": "author"], "author.name == 'Ann'"),
            ("ANY chapters.$k == 'x'", ["k": "book.title"], "ANY chapters.book.title == 'x'"),
            ("SUBQUERY(chapters, $t, $t.$k > 3).@count > 0", ["k": "pages"], "SUBQUERY(chapters, $t, $t.pages > 3).@count > 0"),
        ]
        for (format, variables, plain) in forms {
            let substituted = try Filter(format).substituting(variables)
            for dialect in [Dialect.sqlite, .postgreSQL] {
                let a = try substituted.sqlStatement(schema, dialect)
                let b = try Filter(plain).sqlStatement(schema, dialect)
                #expect(a.sql == b.sql, Comment(rawValue: format))
                #expect(a.bindings == b.bindings, Comment(rawValue: format))
            }
        }
    }

    @Test func testAnUnsubstitutedVariablePieceIsALoweringErrorAtTheVariable() throws {
        for (format, range) in [
            ("author.$k == 'Ann'", SourceRange(7, 9)), ("title == 'x' OR SELF.$k.name == 'Ann'", SourceRange(21, 23)),
            ("SUBQUERY(chapters, $t, $t.$k > 3).@count > 0", SourceRange(26, 28)),
        ] {
            for dialect in [Dialect.sqlite, .postgreSQL] {
                if let error = #expect(throws: (any Error).self, Comment(rawValue: format), performing: { try Filter(format).sqlStatement(schema, dialect) }) {
                    guard let error = error as? SQLLoweringError else { Issue.record("\(error)"); continue }
                    #expect(error.code == .unsupported, Comment(rawValue: format))
                    #expect(error.range == range, Comment(rawValue: format))
                    #expect(error.message.contains("$k"), Comment(rawValue: error.message))
                }
            }
        }
    }
}
