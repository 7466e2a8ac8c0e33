import SiftMacroPlugin
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@KeyValueReadable` writes, and its errors. The readers it writes are
/// all `.property(\Type.name)`: the compiler chooses the overload by the
/// property's type, which `KeyValueReadableMacroTests` checks.
struct KeyValueReadableExpansionTests {
    let macros: [String: Macro.Type] = [
        "KeyValueReadable": KeyValueReadableMacro.self,
        "SiftKey": PropertyMarkMacro.self,
        "SiftIgnored": PropertyMarkMacro.self,
    ]

    private func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], fixedSource: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics,
            macroSpecs: macros.mapValues {
                MacroSpec(type: $0, conformances: [TypeSyntax(IdentifierTypeSyntax(name: .identifier("KeyValueReadable")))])
            },
            fixedSource: fixedSource,
            failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
    }

    /// Expands `source`, which the macros leave as it is but for their
    /// attributes, and adds `extensions`.
    private func expand(_ source: String, adding extensions: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let kept = source.replacing(#/@KeyValueReadable\n|@SiftKey(\("[^"]*"\))? |@SiftIgnored /#, with: "")
        expand(source, kept + "\n\n" + extensions, sourceLocation: sourceLocation)
    }

    /// Every kind of stored property gets the same reader call; the kinds
    /// differ only in the overload the compiler picks.
    @Test func testStoredPropertiesOfEveryKind() {
        expand(
            """
            @KeyValueReadable
            struct Book {
                var title: String
                let year: Int
                var pages: Int32
                var price: Double
                var weight: Float
                var inPrint: Bool
                var tags: [String]
                var editor: Author
                var authors: [Author]
                var published: Date
                var subtitle: String?
                var genre: Genre
                var cost: Decimal
                var id: UUID
                var ratings: Set<Int>
                var extra: Value
                var count = 0
            }
            """,
            adding: """
            extension Book: Sift.KeyValueReadable {
                static let keyTable = Sift.KeyTable<Book>(typed: [
                    "title": .property(\\Book.title),
                    "year": .property(\\Book.year),
                    "pages": .property(\\Book.pages),
                    "price": .property(\\Book.price),
                    "weight": .property(\\Book.weight),
                    "inPrint": .property(\\Book.inPrint),
                    "tags": .property(\\Book.tags),
                    "editor": .property(\\Book.editor),
                    "authors": .property(\\Book.authors),
                    "published": .property(\\Book.published),
                    "subtitle": .property(\\Book.subtitle),
                    "genre": .property(\\Book.genre),
                    "cost": .property(\\Book.cost),
                    "id": .property(\\Book.id),
                    "ratings": .property(\\Book.ratings),
                    "extra": .property(\\Book.extra),
                    "count": .property(\\Book.count),
                ])
            }
            """)
    }

    /// Computed, static, private and ignored properties are left out;
    /// observed ones are stored; `@SiftKey` renames or adds; several names on
    /// one line are several keys; backticks are not part of the key.
    @Test func testWhichPropertiesAreKeys() {
        expand(
            """
            @KeyValueReadable
            public struct Item {
                public var name: String { didSet { print(name) } }
                var shout: String { name.uppercased() }
                var full: String { get { name } set { } }
                static var count = 0
                private var secret: String
                private(set) var visible: Int
                @SiftIgnored var cache: [Int]
                @SiftKey("first_name") var firstName: String
                @SiftKey var loud: String { shout }
                @SiftKey private var hidden: Int
                var x, y: Double
                var `default`: Bool
                func f() {}
            }
            """,
            adding: """
            extension Item: Sift.KeyValueReadable {
                public static let keyTable = Sift.KeyTable<Item>(typed: [
                    "name": .property(\\Item.name),
                    "visible": .property(\\Item.visible),
                    "first_name": .property(\\Item.firstName),
                    "loud": .property(\\Item.loud),
                    "hidden": .property(\\Item.hidden),
                    "x": .property(\\Item.x),
                    "y": .property(\\Item.y),
                    "default": .property(\\Item.`default`),
                ])
            }
            """)
    }

    /// A final class; a generic struct, whose table is computed (generic
    /// types have no static stored properties); a type with no keys; a type
    /// that already says it conforms gets no second conformance.
    @Test func testFinalClassGenericAndEmpty() {
        expand(
            """
            @KeyValueReadable
            final class Shelf {
                let label: String
            }
            @KeyValueReadable
            package struct Box<T: Sendable> {
                var size: Int
            }
            @KeyValueReadable
            struct Nothing {
            }
            """,
            adding: """
            extension Shelf: Sift.KeyValueReadable {
                static let keyTable = Sift.KeyTable<Shelf>(typed: [
                    "label": .property(\\Shelf.label),
                ])
            }

            extension Box: Sift.KeyValueReadable {
                package static var keyTable: Sift.KeyTable<Box> {
                    Sift.KeyTable<Box>(typed: [
                        "size": .property(\\Box.size),
                    ])
                }
            }

            extension Nothing: Sift.KeyValueReadable {
                static let keyTable = Sift.KeyTable<Nothing>(typed: [:])
            }
            """)
    }

    // MARK: - Errors

    @Test func testEnumProtocolAndActorAreErrors() {
        expand(
            """
            @KeyValueReadable
            enum Genre: String {
                case poetry
            }
            """,
            """
            enum Genre: String {
                case poetry
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable applies to a struct or a final class, not to an enum: it reads stored properties",
                    line: 1, column: 1)
            ])
        expand(
            """
            @KeyValueReadable
            protocol Named {
                var name: String { get }
            }
            """,
            """
            protocol Named {
                var name: String { get }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable applies to a struct or a final class, not to a protocol: it reads stored properties",
                    line: 1, column: 1)
            ])
        expand(
            """
            @KeyValueReadable
            actor Counter {
                var n: Int = 0
            }
            """,
            """
            actor Counter {
                var n: Int = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable applies to a struct or a final class, not to an actor: it reads stored properties",
                    line: 1, column: 1)
            ])
    }

    @Test func testClassMustBeFinal() {
        expand(
            """
            @KeyValueReadable
            class Shelf {
                let label: String
            }
            """,
            """
            class Shelf {
                let label: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable applies to a final class only: a subclass would have keys its table does not list",
                    line: 1, column: 1, fixIts: [FixItSpec(message: "make the class final")])
            ],
            fixedSource: """
                @KeyValueReadable
                final class Shelf {
                    let label: String
                }
                """)
    }

    @Test func testLazyAndTuplePropertiesAreErrorsWithFixIts() {
        expand(
            """
            @KeyValueReadable
            struct S {
                lazy var total: Int = 3
                var (a, b): (Int, Int)
            }
            """,
            """
            struct S {
                lazy var total: Int = 3
                var (a, b): (Int, Int)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable cannot read a lazy property (reading it changes the object); "
                        + "mark it @SiftIgnored, or make it a stored or computed property",
                    line: 3, column: 14, fixIts: [FixItSpec(message: "mark it @SiftIgnored")]),
                DiagnosticSpec(
                    message: "@KeyValueReadable cannot read a property declared in a tuple pattern; declare each property "
                        + "separately or mark the line @SiftIgnored",
                    line: 4, column: 9, fixIts: [FixItSpec(message: "mark it @SiftIgnored")]),
            ],
            fixedSource: """
                @KeyValueReadable
                struct S {
                    @SiftIgnored lazy var total: Int = 3
                    @SiftIgnored var (a, b): (Int, Int)
                }
                """)
    }

    @Test func testBadKeysAreErrors() {
        expand(
            """
            @KeyValueReadable
            struct S {
                var name: String
                @SiftKey("name") var title: String
                @SiftKey("a.b") var c: Int
                @SiftKey("x\\(1)") var d: Int
                @SiftKey("both") var e, f: Int
                @SiftKey @SiftIgnored var g: Int
                @SiftKey static var h = 1
            }
            """,
            """
            struct S {
                var name: String
                var title: String
                var c: Int
                var d: Int
                var e, f: Int
                var g: Int
                static var h = 1
            }
            """,
            diagnostics: [
                // The compiler's own, before the macro runs.
                DiagnosticSpec(message: "peer macro can only be applied to a single variable", line: 7, column: 5),
                DiagnosticSpec(
                    message: "the key 'name' is given twice; rename one with @SiftKey(\"...\")", line: 4, column: 5,
                    notes: [NoteSpec(message: "'name' is first given here", line: 3, column: 9)]),
                DiagnosticSpec(
                    message: "'a.b' cannot be a key: a key is not empty and has no '.' (key paths split at dots) and no '\\'",
                    line: 5, column: 5),
                DiagnosticSpec(message: "@SiftKey takes one plain string literal, the key's name", line: 6, column: 5),
                DiagnosticSpec(message: "a property cannot be both @SiftKey and @SiftIgnored", line: 8, column: 5),
                DiagnosticSpec(
                    message: "@SiftKey cannot mark a static property: keys are read from each object", line: 9, column: 5),
            ])
    }

    @Test func testConditionalPropertiesAreAnError() {
        expand(
            """
            @KeyValueReadable
            struct S {
                #if DEBUG
                func dump() {}
                #elseif os(Linux)
                static let platform = "Linux"
                #else
                var trace: String
                #endif
            }
            """,
            """
            struct S {
                #if DEBUG
                func dump() {}
                #elseif os(Linux)
                static let platform = "Linux"
                #else
                var trace: String
                #endif
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@KeyValueReadable cannot read properties declared inside #if; move them out of the #if block, "
                        + "or write the key table by hand",
                    line: 3, column: 5)
            ])
    }

    /// Methods and static properties inside #if are no keys, so no error.
    @Test func testConditionalMethodsAreAllowed() {
        expand(
            """
            @KeyValueReadable
            struct S {
                var name: String
                #if DEBUG
                func dump() {}
                static let level = 1
                #endif
            }
            """,
            adding: """
                extension S: Sift.KeyValueReadable {
                    static let keyTable = Sift.KeyTable<S>(typed: [
                        "name": .property(\\S.name),
                    ])
                }
                """)
    }

    @Test func testMarksOutsideAnAnnotatedTypeAreErrors() {
        expand(
            """
            struct Plain {
                @SiftKey("n") var name: String
            }
            @KeyValueReadable
            struct S {
                @SiftIgnored func f() {}
            }
            """,
            """
            struct Plain {
                var name: String
            }
            struct S {
                func f() {}
            }

            extension S: Sift.KeyValueReadable {
                static let keyTable = Sift.KeyTable<S>(typed: [:])
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@SiftKey marks a property of a type that is @KeyValueReadable; it has no effect here",
                    line: 2, column: 5),
                DiagnosticSpec(
                    message: "@SiftIgnored marks a property of a type that is @KeyValueReadable; it has no effect here",
                    line: 6, column: 5),
            ])
    }
}
