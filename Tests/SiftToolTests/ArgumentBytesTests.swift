import Foundation
import Testing

@testable import SiftTool

/// Arguments that are not UTF-8 are refused, naming the argument and the
/// byte, never repaired.
struct ArgumentBytesTests {
    @Test func firstInvalidByte() {
        #expect(ArgumentBytes.firstInvalid([Array("format".utf8), Array("a == 'é'".utf8)]) == nil)
        #expect(ArgumentBytes.firstInvalid([Array("format".utf8), Array("a == '".utf8) + [0xFF, 0x27]])! == (2, 6))
        #expect(ArgumentBytes.firstInvalid([[0xC3]])! == (1, 0))
    }

    @Test func invalidArgumentsAreRefused() throws {
        // A shell passes the byte 0xFF, which a Swift String cannot hold.
        let script = #"exec "$0" format "$(printf 'a == \047\377\047')""#
        let run = try CommandLineTests().sift([], timeout: 60, launcher: ["/bin/sh", "-c", script])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr.contains("argument 2 is not UTF-8: the byte at offset 6"), "\(run.stderr)")
    }
}
