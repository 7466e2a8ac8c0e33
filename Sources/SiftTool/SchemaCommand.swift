import ArgumentParser
import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema of a SQLite file, Core Data store or PostgreSQL database, as JSON.",
        discussion: """
            Plain tables with foreign keys, or Core Data's layout. Edit the output and pass it to `sift query \
            --schema` or `sift sql --schema` where the inference is wrong. Given a JSON schema, checks it and \
            prints it back.

            A Core Data store is read through its model: the one it caches (Z_MODELCACHE), or the one --model \
            names (a .mom, .momd, .xcdatamodel(d) folder, or its contents or elements file); without either, \
            the schema is inferred from the tables.

            A PostgreSQL URL (postgresql://user:password@host:port/database, or postgres://; PGHOST, PGPORT, \
            PGUSER, PGPASSWORD and PGDATABASE fill in what it leaves out) is read from the catalog of its \
            current schema (public), with the rules used for a plain SQLite file.

            Examples:
              sift schema Library.sqlite > schema.json
              sift schema Recipes.sqlite --model Recipes.xcdatamodeld
              sift schema schema.json
              sift schema postgresql://ann@db.example.com/library
            """)

    @Argument(help: "A SQLite file, a schema JSON file, or a postgresql:// URL.")
    var file: String

    @OptionGroup var model: ModelOption

    func run() throws {
        let schema: StoreSchema
        if PostgresURL.matches(file) {
            if model.model != nil { throw PostgresURL.modelGiven }
            let database = try PostgresDatabase.open(file)
            database.close()
            schema = database.schema
            for note in database.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        } else {
            schema = try SchemaFile.load(file, model: try model.load())
        }
        print(String(decoding: try schema.jsonData(), as: UTF8.self))
    }
}

/// Loading a schema for the SQL commands, with errors printed as the other
/// commands print theirs.
enum SchemaFile {
    /// The first 16 bytes of every SQLite database file.
    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// The schema in `path`: read from the database if it is a SQLite file
    /// (through `model` when given), else decoded as JSON (`StoreSchema(json:)`).
    static func load(_ path: String, model: CoreDataModel? = nil) throws -> StoreSchema {
        try InputFile.requireRegular(path)
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandFailure("cannot read \(path)") }
        let header = handle.readData(ofLength: sqliteHeader.count)
        try? handle.close()
        let limits = try ReadOnlyDatabase.Limits.fromEnvironment()
        do {
            if header == sqliteHeader {
                let queue = try ReadOnlyDatabase.open(path: path, limits: limits)
                return try queue.read { try StoreSchema.read(from: $0, model: model) }
            }
            if model != nil { throw CommandFailure("--model describes a Core Data store; \(path) is a schema file") }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            // The decoder's own message does not say where the JSON breaks.
            _ = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
            return try StoreSchema(json: data)
        } catch {
            throw CommandFailure("\(path): " + describe(error))
        }
    }

    /// A one-line description of a schema, database or JSON error.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as JSONError:
            return "invalid JSON: \(e)"
        case let e as StoreSchemaError:
            return e.message
        case let e as DatabaseError:
            return e.message ?? e.description
        case let e as DecodingError:
            func at(_ context: DecodingError.Context) -> String {
                let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
                return path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
            }
            switch e {
            case .keyNotFound(let key, let context): return "invalid schema: missing \"\(key.stringValue)\"" + at(context)
            case .typeMismatch(let type, let context): return "invalid schema: expected \(type)" + at(context)
            case .valueNotFound(let type, let context): return "invalid schema: expected \(type)" + at(context)
            case .dataCorrupted(let context):
                let underlying = context.underlyingError.map { " (\($0))" } ?? ""
                return "invalid schema: " + context.debugDescription + underlying + at(context)
            @unknown default: return "invalid schema: \(e)"
            }
        default:
            return "\(error)"
        }
    }
}

/// `--model PATH`: the Core Data model of a store that caches none.
struct ModelOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The Core Data model of the store (.mom, .momd, .xcdatamodel(d), or its contents or elements file).",
            valueName: "path"))
    var model: String?

    /// The model, read; nil without the option.
    func load() throws -> CoreDataModel? {
        guard let model else { return nil }
        do {
            return try CoreDataModel(contentsOf: URL(fileURLWithPath: model))
        } catch {
            throw CommandFailure(error.message)
        }
    }
}

/// A failure reported as `error: message` on standard error, with exit
/// status 2.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    /// The message may quote a path, a name or data: characters a terminal
    /// would act on are shown as escapes.
    var description: String { "error: " + TerminalText.visible(message) }
}

/// Options that shape a fetch request: order, slice, count.
struct FetchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Sort order, e.g. 'author.name ASC caseInsensitive, year DESC'.", valueName: "keys"))
    var sort: String?

    @Option(help: "Fetch at most this many rows.")
    var limit: Int?

    @Option(help: "Skip this many rows first.")
    var offset: Int = 0

    @Flag(help: "Count the rows instead of fetching them.")
    var count = false

    @Flag(help: ArgumentHelp(
        "Fetch only the entity's own objects, not its sub-entities' (Core Data's includesSubentities = NO)."))
    var excludeSubentities = false

    @Flag(help: ArgumentHelp(
        "Each distinct result once (Core Data's returnsDistinctResults): with --select KEYPATHS, each distinct combination of their values."))
    var distinct = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    /// The request for `entity`; a bad sort order is printed with a caret
    /// and exits with status 2.
    func request(entity: String, filter: Filter) throws -> FetchSpecification {
        var keys: [SortKey] = []
        if let sort {
            do {
                keys = try SortKey.parse(sort)
            } catch {
                Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY))
                throw ExitCode(2)
            }
        }
        return FetchSpecification(
            entity: entity, filter: filter, sort: keys, offset: offset, limit: limit, distinct: distinct,
            includesSubentities: !excludeSubentities)
    }
}

extension SQLLoweringError {
    /// Prints the error (with a caret under the key at fault) and returns
    /// the exit status 2.
    func report() -> ExitCode {
        if code == .unknownEntity {
            Terminal.printError(CommandFailure(message).description)
        } else {
            Terminal.printError(rendered(colors: Terminal.stderrIsTTY))
        }
        return ExitCode(2)
    }
}
