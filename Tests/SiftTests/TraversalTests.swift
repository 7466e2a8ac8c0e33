import Testing

@testable import Sift

/// The walk over the tree that the passes share: each kind's children in
/// source order, a node rebuilt from them, and the one rule of scope.
struct TraversalTests {
    /// Between them, every kind of expression.
    static let formats = [
        "SUBQUERY(authors, $a, $a.name == $n AND TERNARY($a.age > 1, $a, SELF) != nil).@count > 0",
        "FUNCTION(name, 'stringByPaddingToLength:withString:startingAtIndex:', 3, '.', 0) == CAST(a, 'NSString')",
        "($x := abs(-a)) == {b, $c}[0] AND a[FIRST] == b[$i] AND ANYKEY == 1",
        "a.$b == (a UNION b)[SIZE] AND $t.name == 'x' AND SELF == {1, 2}",
    ]

    static func nodes(_ root: SyntaxChild.Node) -> [SyntaxChild.Node] {
        var out: [SyntaxChild.Node] = []
        var pending = [root]
        while let node = pending.popLast() {
            out.append(node)
            pending.append(contentsOf: node.children.map(\.node))
        }
        return out
    }

    @Test func everyNodeIsItsChildrenPutBack() throws {
        var kinds = Set<String>()
        for format in Self.formats {
            for node in Self.nodes(.predicate(try FormatParser.parsePredicate(format))) {
                switch node {
                case .predicate(let p):
                    #expect(p.kind.replacingChildren(p.kind.children) == p.kind, "\(format)")
                case .expression(let e):
                    #expect(e.kind.replacingChildren(e.kind.children) == e.kind, "\(format)")
                    kinds.insert(Mirror(reflecting: e.kind).children.first?.label ?? "\(e.kind)")
                }
            }
        }
        #expect(kinds.count == 16)
    }

    @Test func childrenAreInSourceOrder() throws {
        for format in Self.formats {
            for node in Self.nodes(.predicate(try FormatParser.parsePredicate(format))) {
                let starts = node.children.compactMap { child -> Int? in
                    switch child.node {
                    case .expression(let e): return e.range?.lowerBound
                    case .predicate(let p): return p.range?.lowerBound
                    }
                }
                #expect(starts == starts.sorted(), "\(format)")
            }
        }
    }

    @Test func rebuildingTakesTheNewChildren() throws {
        let e = try FormatParser.parseExpression("TERNARY(a == 1, b, c)")
        let children = e.kind.children.map { child -> SyntaxChild in
            guard case .expression = child.node else { return child }
            return .expression(.constant(7))
        }
        #expect(FormatPrinter.format(ExpressionNode(e.kind.replacingChildren(children))) == "TERNARY(a == 1, 7, 7)")
    }

    /// A SUBQUERY's variable is bound in its predicate, not in its
    /// collection; an assignment binds its variable in no child.
    @Test func onlyASubqueryPredicateBindsItsVariable() throws {
        let subquery = try FormatParser.parseExpression("SUBQUERY($a, $a, $a == 1)")
        #expect(subquery.kind.children.map(\.binds) == [nil, "a"])
        let assignment = try FormatParser.parseExpression("$y := $z")
        #expect(assignment.kind.children.map(\.binds) == [nil])
        #expect(try Filter("SUBQUERY($a, $a, $a == 1).@count == 0").variableNames == ["a"])
        #expect(try Filter("($y := $z) == 1").variableNames == ["z"])
    }

    @Test func anInnerBindingHidesAnOuterOne() {
        var scope = VariableScope<Int>()
        #expect(scope.binding(of: "x") == nil && !scope.binds("x"))
        scope.bind("x", to: 1)
        scope.bind("y", to: 2)
        scope.bind("x", to: 3)
        #expect(scope.binding(of: "x") == 3 && scope.binding(of: "y") == 2)
        scope.unbind()
        #expect(scope.binding(of: "x") == 1)
        let inner = SyntaxChild.predicate(.truePredicate, binds: "z")
        scope.enter(inner, 4)
        #expect(scope.binding(of: "z") == 4)
        scope.leave(inner)
        scope.enter(.expression(.evaluatedObject), 5)
        #expect(!scope.binds("z") && scope.binding(of: "x") == 1)
    }
}
