import ArgumentParser
import Foundation
import Sift
import SiftSQL

struct SqlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Print the SQL a predicate lowers to, with its bound values.",
        discussion: """
            Lowers a fetch of ENTITY filtered by FORMAT through the schema in FILE: a schema JSON file \
            (see `sift schema`) or a SQLite database, whose schema is then inferred. Prints the statement, \
            then one line per bound value: `-- ?1 = 'x'` (SQLite) or `-- $1 = 'x'` (PostgreSQL, DuckDB); \
            with --output json, one object {"sql": …, "bindings": […]}. An unknown \
            key or a construct SQL cannot express with the same meaning exits with 2.

            Examples:
              sift sql 'author.name ==[c] %@' --arg '"ann"' \\
                --schema Library.sqlite --entity Book
              sift sql 'ANY tags.name IN {"a", "b"}' --schema schema.json \\
                --dialect postgres --sort 'year DESC'
            """)

    /// Every dialect by its name; ArgumentParser lists them for a name
    /// that is none of them.
    enum DialectArgument: String, ExpressibleByArgument, CaseIterable {
        case sqlite, postgres, duckdb

        var sqlDialect: Dialect { Dialect(rawValue: rawValue) ?? .sqlite }
    }

    /// The statement as text with comment lines, or as one JSON object.
    enum StatementOutput: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var input: FormatInput

    @Option(help: ArgumentHelp("A schema JSON file or a SQLite database.", valueName: "file"))
    var schema: String

    @OptionGroup var model: ModelOption

    @Option(help: ArgumentHelp("The entity to fetch; optional when the schema has only one.", valueName: "name"))
    var entity: String?

    @Option(help: "The SQL dialect.")
    var dialect: DialectArgument = .sqlite

    @Option(help: ArgumentHelp(
        "text: the statement, then a comment line per bound value; json: {\"sql\": …, \"bindings\": […]}.",
        valueName: "format"))
    var output: StatementOutput = .text

    @OptionGroup var fetch: FetchOptions

    @OptionGroup var grouping: GroupingOptions

    @OptionGroup var policy: PolicyOptions

    func run() throws {
        let filter = try input.filter()
        try policy.check(filter)
        let schema = try SchemaFile.load(self.schema, model: try model.load())
        var request = try fetch.request(entity: try Self.entity(entity, in: schema), filter: filter)
        let grouped = grouping.isGiven ? try grouping.apply(to: &request, policy: policy, properties: true) : nil
        try policy.check(sort: request.sort, parsedFrom: fetch.sort, of: request)
        let statement: BoundStatement
        do {
            statement = fetch.count
                ? try request.countSQL(in: schema, dialect: dialect.sqlDialect)
                : try request.sql(in: schema, dialect: dialect.sqlDialect).statement
        } catch {
            throw grouped?.report(error) ?? error.report()
        }
        var buffer = OutputBuffer()
        switch output {
        case .text:
            buffer.write(Terminal.shownOnStandardOutput(statement.sql))
            for line in SQLComments.bindings(statement, dialect: dialect.sqlDialect) { buffer.write(line) }
        case .json:
            buffer.write(statement.jsonText)
        }
        buffer.flush()
    }

    /// The entity named on the command line, or the schema's only one.
    static func entity(_ name: String?, in schema: StoreSchema) throws -> String {
        if let name { return name }
        guard schema.entities.count == 1 else {
            let names = schema.entities.map(\.name).joined(separator: ", ")
            throw CommandFailure("--entity is needed: the schema has " + (names.isEmpty ? "no entities" : names))
        }
        return schema.entities[0].name
    }
}

/// The lines that follow a statement to show its bound values.
enum SQLComments {
    /// `-- ?1 = 'x'` (SQLite) or `-- $1 = 'x'` (PostgreSQL), one line per
    /// value. A value's line break or control character is shown as an
    /// escape: the line is for a reader, and it stays one comment line.
    static func bindings(_ statement: BoundStatement, dialect: Dialect) -> [String] {
        statement.bindings.enumerated().map { i, value in
            "-- \(dialect.placeholder(i + 1)) = " + TerminalText.visible(value.literalDescription)
        }
    }
}
