import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@KeyValueReadable`: the conformance to `KeyValueReadable` and a
/// `keyTable` with one reader for each stored property of a struct or a
/// final class.
///
/// The macro only sees syntax, so it does not choose the readers: each key
/// becomes `.property(\Type.name)`, and the compiler picks the overload of
/// `KeyReader.property` for the property's type (`Int` read in place, a
/// nested conforming type as a relationship, an enum by its raw value...).
/// That also covers properties written without a type annotation, type
/// aliases and qualified names, which the syntax alone cannot tell apart.
public struct KeyValueReadableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let shape = TypeShape(declaration, attribute: node, in: context) else { return [] }
        guard let keys = Keys(declaration.memberBlock, in: context) else { return [] }

        let root = type.trimmed.description
        let access = shape.access.map { "\($0) " } ?? ""
        let conformance = protocols.isEmpty ? "" : ": Sift.KeyValueReadable"
        // Generic types cannot have static stored properties: their table is
        // built when asked for (compiled filters ask once, when compiling).
        let (head, indent, tail) =
            shape.isGeneric
            ? ("\(access)static var keyTable: Sift.KeyTable<\(root)> {\n        ", "        ", "\n    }")
            : ("\(access)static let keyTable = ", "    ", "")
        let entries = keys.entries.map { "\(indent)    \"\($0.key)\": .property(\\\(root).\($0.property)),\n" }
        let table =
            entries.isEmpty
            ? "Sift.KeyTable<\(root)>(typed: [:])"
            : "Sift.KeyTable<\(root)>(typed: [\n\(entries.joined())\(indent)])"
        let ext = DeclSyntax(
            stringLiteral: "extension \(root)\(conformance) {\n    \(head)\(table)\(tail)\n}")
        return [ext.cast(ExtensionDeclSyntax.self)]
    }
}

/// What the macro needs to know of the annotated type, once it is known to
/// be a struct or a final class.
private struct TypeShape {
    /// The access level of `keyTable`: the type's, when it is visible
    /// outside its module (a witness must be as visible as the conformance).
    var access: String?
    var isGeneric: Bool

    init?(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext) {
        switch DeclSyntax(declaration).as(DeclSyntaxEnum.self) {
        case .structDecl(let s):
            isGeneric = s.genericParameterClause != nil
        case .classDecl(let c):
            guard c.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
                // `final` goes before `class`, which keeps the line it is on.
                let final = DeclModifierSyntax(
                    leadingTrivia: c.modifiers.isEmpty ? c.classKeyword.leadingTrivia : [],
                    name: .keyword(.final), trailingTrivia: .space)
                var fixed = c
                fixed.modifiers = c.modifiers + [final]
                fixed.classKeyword.leadingTrivia = c.modifiers.isEmpty ? [] : c.classKeyword.leadingTrivia
                context.diagnose(
                    Diagnostic(
                        node: attribute, message: MacroDiagnostic.nonFinalClass,
                        fixIt: FixIt(message: MacroFixIt.addFinal, changes: [.replace(oldNode: Syntax(c), newNode: Syntax(fixed))])))
                return nil
            }
            isGeneric = c.genericParameterClause != nil
        case .enumDecl:
            context.diagnose(Diagnostic(node: attribute, message: MacroDiagnostic.notAStruct("an enum")))
            return nil
        case .protocolDecl:
            context.diagnose(Diagnostic(node: attribute, message: MacroDiagnostic.notAStruct("a protocol")))
            return nil
        case .actorDecl:
            context.diagnose(Diagnostic(node: attribute, message: MacroDiagnostic.notAStruct("an actor")))
            return nil
        default:
            context.diagnose(Diagnostic(node: attribute, message: MacroDiagnostic.notAStruct("this declaration")))
            return nil
        }
        access = declaration.modifiers.lazy.compactMap { modifier -> String? in
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public"
            case .keyword(.package): return "package"
            default: return nil
            }
        }.first
    }
}

/// The keys of a type: its stored properties, less those marked
/// `@SiftIgnored`, private ones and `static` ones, plus computed or private
/// properties marked `@SiftKey`; each under its name or the one `@SiftKey`
/// gives.
private struct Keys {
    struct Entry {
        var key: String
        /// The property's name as written in Swift (with backticks, if any).
        var property: String
    }

    var entries: [Entry] = []

    /// Nil when a diagnostic was emitted: the table would be wrong, so none
    /// is generated.
    init?(_ members: MemberBlockSyntax, in context: some MacroExpansionContext) {
        var failed = false
        var seen: [String: Syntax] = [:]
        for member in members.members {
            // Which branch of an #if is compiled is not known here; methods
            // and static properties in one do not matter.
            if let block = member.decl.as(IfConfigDeclSyntax.self) {
                if Self.declaresInstanceProperties(block) {
                    context.diagnose(Diagnostic(node: block, message: MacroDiagnostic.conditionalMembers))
                    failed = true
                }
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let marks = Marks(variable.attributes)
            if marks.ignored != nil, let key = marks.key {
                context.diagnose(Diagnostic(node: key, message: MacroDiagnostic.keyAndIgnored))
                failed = true
                continue
            }
            if marks.ignored != nil { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) {
                if let key = marks.key {
                    context.diagnose(Diagnostic(node: key, message: MacroDiagnostic.staticKey))
                    failed = true
                }
                continue
            }
            var renamed: String?
            if let key = marks.key {
                switch Self.name(in: key) {
                case .none: break
                // The compiler rejects an attribute on a line of several
                // properties (peer macros apply to one).
                case .some(.success) where variable.bindings.count > 1:
                    failed = true
                    continue
                case .some(.success(let name)): renamed = name
                case .some(.failure(let message)):
                    context.diagnose(Diagnostic(node: key, message: message))
                    failed = true
                    continue
                }
            }
            let isPrivate = variable.modifiers.contains { m in
                (m.name.tokenKind == .keyword(.private) || m.name.tokenKind == .keyword(.fileprivate)) && m.detail == nil
            }
            if isPrivate && marks.key == nil { continue }
            let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                    let identifier = pattern.identifier.identifier
                else {
                    context.diagnose(
                        Diagnostic(
                            node: binding.pattern, message: MacroDiagnostic.tuplePattern,
                            fixIt: Self.ignoreFixIt(variable)))
                    failed = true
                    continue
                }
                if Self.isComputed(binding) && marks.key == nil { continue }
                if isLazy {
                    context.diagnose(
                        Diagnostic(node: pattern, message: MacroDiagnostic.lazy, fixIt: Self.ignoreFixIt(variable)))
                    failed = true
                    continue
                }
                let key = renamed ?? identifier.name
                let node = Syntax(marks.key ?? Syntax(pattern))
                if let first = seen[key] {
                    context.diagnose(
                        Diagnostic(
                            node: node, message: MacroDiagnostic.duplicateKey(key),
                            notes: [Note(node: first, message: MacroNote.firstKey(key))]))
                    failed = true
                    continue
                }
                seen[key] = node
                entries.append(Entry(key: key, property: pattern.identifier.text))
            }
        }
        if failed { return nil }
    }

    static func declaresInstanceProperties(_ block: IfConfigDeclSyntax) -> Bool {
        block.clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { member in
                if let nested = member.decl.as(IfConfigDeclSyntax.self) { return declaresInstanceProperties(nested) }
                guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
                return !variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
            }
        }
    }

    /// A property with a getter (or a block that is one); `willSet` and
    /// `didSet` observe a stored property.
    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return false }
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { accessor in
                switch accessor.accessorSpecifier.tokenKind {
                case .keyword(.willSet), .keyword(.didSet): return false
                default: return true
                }
            }
        }
    }

    /// The name `@SiftKey("name")` gives, nil for a plain `@SiftKey`.
    static func name(in attribute: Syntax) -> Result<String, MacroDiagnostic>? {
        guard let attribute = attribute.as(AttributeSyntax.self),
            case .argumentList(let arguments) = attribute.arguments, let first = arguments.first
        else { return nil }
        guard arguments.count == 1, first.label == nil,
            let literal = first.expression.as(StringLiteralExprSyntax.self),
            literal.segments.count == 1, case .stringSegment(let segment) = literal.segments.first
        else { return .failure(.keyNotALiteral) }
        let name = segment.content.text
        // A key path splits at dots, so a key with one could never be read.
        guard !name.isEmpty, !name.contains("."), !name.contains("\\") else { return .failure(.badKey(name)) }
        return .success(name)
    }

    static func ignoreFixIt(_ variable: VariableDeclSyntax) -> FixIt {
        // The attribute goes last before the modifiers; the first one takes
        // the line's indentation.
        var attribute = AttributeSyntax(
            attributeName: IdentifierTypeSyntax(name: .identifier("SiftIgnored")), trailingTrivia: .space)
        var fixed = variable
        if variable.attributes.isEmpty {
            attribute.leadingTrivia = variable.leadingTrivia
            fixed.leadingTrivia = []
        }
        fixed.attributes = fixed.attributes + [.attribute(attribute)]
        return FixIt(message: MacroFixIt.addIgnored, changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(fixed))])
    }
}

/// The companion attributes on one property.
private struct Marks {
    var key: Syntax?
    var ignored: Syntax?

    init(_ attributes: AttributeListSyntax) {
        for case .attribute(let attribute) in attributes {
            let name = attribute.attributeName.as(IdentifierTypeSyntax.self)?.name.text
                ?? attribute.attributeName.as(MemberTypeSyntax.self)?.name.text
            switch name {
            case "SiftKey": key = Syntax(attribute)
            case "SiftIgnored": ignored = Syntax(attribute)
            default: break
            }
        }
    }
}

/// `@SiftKey` and `@SiftIgnored` mark properties for `@KeyValueReadable`,
/// which reads them; on their own they add nothing, so they are errors where
/// no `@KeyValueReadable` would read them.
public struct PropertyMarkMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        checkPlacement(of: node, on: declaration, in: context)
        return []
    }
}

/// A marking attribute must be on a property of a type that `@KeyValueReadable`
/// is attached to.
private func checkPlacement(
    of node: AttributeSyntax, on declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
) {
    let name = node.attributeName.trimmedDescription
    guard declaration.is(VariableDeclSyntax.self) else {
        context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.markOutsideType(name)))
        return
    }
    let attributes: AttributeListSyntax? =
        switch context.lexicalContext.first?.as(DeclSyntax.self)?.as(DeclSyntaxEnum.self) {
        case .structDecl(let s): s.attributes
        case .classDecl(let c): c.attributes
        default: nil
        }
    let annotated = attributes?.contains { element in
        guard case .attribute(let a) = element else { return false }
        let type = a.attributeName.as(MemberTypeSyntax.self)?.name.text ?? a.attributeName.trimmedDescription
        return type == "KeyValueReadable"
    }
    if annotated != true {
        context.diagnose(Diagnostic(node: node, message: MacroDiagnostic.markOutsideType(name)))
    }
}
