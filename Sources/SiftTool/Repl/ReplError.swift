import Foundation
import Sift

/// A REPL error: a message, or a diagnostic with a caret.
struct ReplError: Error {
    var message: String
    var diagnostic: (any SourceDiagnostic)?

    init(_ message: String) { self.message = message }
    init(diagnostic: any SourceDiagnostic) {
        message = diagnostic.message
        self.diagnostic = diagnostic
    }

    func reply(_ style: Style) -> ReplSession.Reply {
        if let diagnostic { return .init(output: diagnostic.rendered(colors: style.enabled), isError: true) }
        return .init(output: style.red("error:") + " " + TerminalText.visible(message), isError: true)
    }
}
