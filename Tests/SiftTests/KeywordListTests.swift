import Foundation
import Testing

@testable import Sift

/// The one list of words (``Keywords``) against the grammar and the lexer:
/// the reserved words are the grammar's `KEYWORD` production, each one lexes
/// to its token in any case, and a word that is not reserved is a key.
struct KeywordListTests {
    /// The quoted words of the grammar's `KEYWORD ::= ( … ) !WORD_PART`.
    static func grammarKeywords() throws -> [String] {
        let grammar = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("grammar/Predicate.ebnf")
        let text = try String(contentsOf: grammar, encoding: .utf8)
        let start = try #require(text.range(of: "\nKEYWORD ::="))
        let end = try #require(text.range(of: "!WORD_PART", range: start.upperBound..<text.endIndex))
        let production = text[start.upperBound..<end.lowerBound]
        return production.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func reservedWordsAreTheGrammars() throws {
        let grammar = try Self.grammarKeywords()
        #expect(grammar.count > 30)
        #expect(Set(grammar) == Set(Keywords.reserved))
        #expect(grammar.count == Keywords.reserved.count)
    }

    @Test func everyReservedWordLexesAsAKeyword() throws {
        for word in Keywords.reserved {
            #expect(Lexer.isReserved(word) || word.contains("-"), "\(word)")
            #expect(Lexer.isReserved(word.lowercased()) || word.contains("-"), "\(word)")
        }
        for keyword in Keywords.all where keyword.token == nil {
            #expect(!Lexer.isReserved(keyword.word), "\(keyword.word)")
        }
    }

    @Test func completionOffersTheListsWords() {
        #expect(Keywords.completions.contains("BEGINSWITH"))
        #expect(Keywords.completions.contains("nil"))
        #expect(Keywords.completions.contains("FUNCTION"))
        #expect(!Keywords.completions.contains("CASEINSENSITIVE"))
    }
}
