/// An error that does not yet know where it happened: a message only. The
/// phase that catches it attaches the range of the node at fault (a
/// variable's value that cannot name a key, a set expression with no
/// value, a construct a SQL dialect has no form for). Evaluation's own
/// failures carry an error code as well (`Failure`).
package struct Problem: Error {
    package let message: String

    package init(message: String) {
        self.message = message
    }
}
