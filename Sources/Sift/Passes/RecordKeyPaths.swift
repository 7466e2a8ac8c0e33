extension JSONScan {
    /// The key paths on the record that `predicate` reads, inside a
    /// SUBQUERY's predicate too (the slots the scan fills), or nil when it
    /// reads the record as a whole (`SELF`).
    static func keyPaths(_ predicate: PredicateNode) -> [[String]]? {
        var paths: [[String]] = []
        return collect(.predicate(predicate), into: &paths) ? paths : nil
    }

    /// Adds the key paths on the record that `node` reads; false when it
    /// reads the record as a whole.
    private static func collect(_ node: SyntaxChild.Node, into paths: inout [[String]]) -> Bool {
        if case .expression(let e) = node {
            switch e.kind {
            case .evaluatedObject:
                return false
            case .keyPath(let keys):
                paths.append(keys)
                return true
            default:
                break
            }
        }
        for child in node.children {
            guard collect(child.node, into: &paths) else { return false }
        }
        return true
    }
}
