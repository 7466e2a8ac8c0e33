import Foundation
import Testing

@testable import SiftTool

extension ReplSessionTests {
    @Test func setExpressionsInTheRepl() throws {
        let s = try Self.session()
        for word in ["UNION", "INTERSECT", "MINUS"] {
            #expect(s.completionWords.contains(word))
        }
        let tree = s.handle(":ast year IN {1950} UNION {1960, 1970}")
        #expect(!tree.isError)
        #expect(tree.output.contains("UNION"))
    }
}
