/// A predicate: something that is true or false for an object.
///
/// An immutable value. Equality and hashing ignore ``range``, so a parsed tree
/// equals a hand-built one.
public struct PredicateNode: Sendable {
    /// What the predicate is.
    public var kind: Kind
    /// Where the predicate came from in its format string, if it was parsed.
    public var range: SourceRange?

    /// A predicate of `kind`, from `range` of its format string if it was parsed.
    public init(_ kind: Kind, range: SourceRange? = nil) {
        self.kind = kind
        self.range = range
    }

    /// The kinds of predicate: constants, compounds and comparisons, as Apple's `NSPredicate`
    /// subclasses.
    public indirect enum Kind: Sendable, Hashable {
        /// `TRUEPREDICATE` / `FALSEPREDICATE`
        case constant(Bool)
        /// `a AND b AND …` (`&&`). An empty AND is true.
        case and([PredicateNode])
        /// `a OR b OR …` (`||`). An empty OR is false.
        case or([PredicateNode])
        /// `NOT a` (`!a`). `NONE p` is parsed as `NOT ANY p`.
        case not(PredicateNode)
        /// `[ANY|ALL] lhs OP[options] rhs`
        case comparison(Comparison)
    }
}

extension PredicateNode: Hashable {
    /// Whether two predicates have the same tree, ranges aside.
    public static func == (lhs: PredicateNode, rhs: PredicateNode) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the tree, ranges aside.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

// MARK: - Builders

extension PredicateNode {
    /// `TRUEPREDICATE`.
    public static let truePredicate = PredicateNode(.constant(true))
    /// `FALSEPREDICATE`.
    public static let falsePredicate = PredicateNode(.constant(false))

    /// A comparison `lhs OP rhs`.
    public static func compare(
        _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) -> PredicateNode {
        PredicateNode(.comparison(Comparison(lhs, op, rhs, modifier: modifier, options: options)))
    }

    /// `NOT p`.
    public static func not(_ p: PredicateNode) -> PredicateNode { PredicateNode(.not(p)) }

    /// The conjunction of `children`, normalised: no children is
    /// `TRUEPREDICATE`, one child is that child, nested ANDs are flattened.
    public static func and(_ children: [PredicateNode]) -> PredicateNode {
        compound(children, isAnd: true)
    }

    /// The disjunction of `children`, normalised like ``and(_:)``.
    public static func or(_ children: [PredicateNode]) -> PredicateNode {
        compound(children, isAnd: false)
    }

    private static func compound(_ children: [PredicateNode], isAnd: Bool) -> PredicateNode {
        var flat: [PredicateNode] = []
        for child in children {
            switch child.kind {
            case .and(let grand) where isAnd: flat.append(contentsOf: grand)
            case .or(let grand) where !isAnd: flat.append(contentsOf: grand)
            default: flat.append(child)
            }
        }
        if flat.isEmpty { return isAnd ? .truePredicate : .falsePredicate }
        if flat.count == 1 { return flat[0] }
        return PredicateNode(isAnd ? .and(flat) : .or(flat))
    }
}

/// `lhs OP[options] rhs`, with an optional `ANY`/`ALL` modifier.
public struct Comparison: Sendable, Hashable {
    /// The left operand.
    public var lhs: ExpressionNode
    /// The operator.
    public var op: ComparisonOperator
    /// The right operand.
    public var rhs: ExpressionNode
    /// `ANY` or `ALL` on the left operand, or ``ComparisonModifier/direct``.
    public var modifier: ComparisonModifier
    /// The `[cdn]` options.
    public var options: ComparisonOptions

    /// The comparison `lhs op[options] rhs`, with `modifier` on the left side.
    public init(
        _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.modifier = modifier
        self.options = options
    }
}

// Synthesised here, where the types are declared; see Codable.swift.
extension PredicateNode: Codable {}
extension PredicateNode.Kind: Codable {}
extension Comparison: Codable {}
