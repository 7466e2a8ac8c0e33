import SwiftDiagnostics

/// The errors of `@KeyValueReadable` and its companion attributes.
enum MacroDiagnostic: DiagnosticMessage, Error {
    case notAStruct(String)
    case nonFinalClass
    case conditionalMembers
    case keyAndIgnored
    case staticKey
    case keyNotALiteral
    case badKey(String)
    case tuplePattern
    case lazy
    case duplicateKey(String)
    case markOutsideType(String)

    var message: String {
        switch self {
        case .notAStruct(let what):
            "@KeyValueReadable applies to a struct or a final class, not to \(what): it reads stored properties"
        case .nonFinalClass:
            "@KeyValueReadable applies to a final class only: a subclass would have keys its table does not list"
        case .conditionalMembers:
            "@KeyValueReadable cannot read properties declared inside #if; move them out of the #if block, "
                + "or write the key table by hand"
        case .keyAndIgnored:
            "a property cannot be both @SiftKey and @SiftIgnored"
        case .staticKey:
            "@SiftKey cannot mark a static property: keys are read from each object"
        case .keyNotALiteral:
            "@SiftKey takes one plain string literal, the key's name"
        case .badKey(let name):
            "'\(name)' cannot be a key: a key is not empty and has no '.' (key paths split at dots) and no '\\'"
        case .tuplePattern:
            "@KeyValueReadable cannot read a property declared in a tuple pattern; declare each property "
                + "separately or mark the line @SiftIgnored"
        case .lazy:
            "@KeyValueReadable cannot read a lazy property (reading it changes the object); "
                + "mark it @SiftIgnored, or make it a stored or computed property"
        case .duplicateKey(let key):
            "the key '\(key)' is given twice; rename one with @SiftKey(\"...\")"
        case .markOutsideType(let name):
            "@\(name) marks a property of a type that is @KeyValueReadable; it has no effect here"
        }
    }

    var diagnosticID: MessageID {
        let id =
            switch self {
            case .notAStruct: "notAStruct"
            case .nonFinalClass: "nonFinalClass"
            case .conditionalMembers: "conditionalMembers"
            case .keyAndIgnored: "keyAndIgnored"
            case .staticKey: "staticKey"
            case .keyNotALiteral: "keyNotALiteral"
            case .badKey: "badKey"
            case .tuplePattern: "tuplePattern"
            case .lazy: "lazy"
            case .duplicateKey: "duplicateKey"
            case .markOutsideType: "markOutsideType"
            }
        return MessageID(domain: "SiftMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

enum MacroNote: NoteMessage {
    case firstKey(String)

    var message: String {
        switch self {
        case .firstKey(let key): "'\(key)' is first given here"
        }
    }

    var noteID: MessageID {
        switch self {
        case .firstKey: MessageID(domain: "SiftMacros", id: "firstKey")
        }
    }
}

enum MacroFixIt: FixItMessage {
    case addFinal
    case addIgnored

    var message: String {
        switch self {
        case .addFinal: "make the class final"
        case .addIgnored: "mark it @SiftIgnored"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .addFinal: MessageID(domain: "SiftMacros", id: "addFinal")
        case .addIgnored: MessageID(domain: "SiftMacros", id: "addIgnored")
        }
    }
}
