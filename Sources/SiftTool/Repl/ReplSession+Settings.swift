import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// The settings commands: `:sort`, `:limit`, `:set`, `:args`, `:use`, `:load`, `:schema`.
extension ReplSession {
    // MARK: - Settings

    func setSort(_ argument: String) -> Reply {
        if argument.isEmpty || argument == "none" {
            sort = []
            return Reply(output: "unsorted (input order)")
        }
        do {
            let keys = try SortKey.parse(argument)
            // Resolved as SQL resolves them, for the rows in memory.
            if let schema = dataset.schema, collection.primaryKeys != nil {
                sort = try schema.resolve(keys, entity: collection.name, maximumDepth: Dataset.relationshipDepth)
            } else {
                sort = keys
            }
        } catch {
            return failure(error)
        }
        return Reply(output: "sorted by " + sort.map(\.description).joined(separator: ", "))
    }

    func setLimit(_ argument: String) -> Reply {
        if argument.isEmpty || argument == "none" {
            limit = nil
            return Reply(output: "no limit (the first \(Self.defaultShown) matches are shown)")
        }
        guard let n = Int(argument), n >= 0 else { return failure("usage: :limit N (a number ≥ 0) or :limit none") }
        limit = n
        return Reply(output: "limit \(n)")
    }

    /// A constant typed in the predicate language: `1980`, `'Lem'`,
    /// `{1, 2}`, `CAST('2024-01-01T00:00:00Z', 'NSDate')`.
    func constant(_ text: String) -> Result<Value, ReplError> {
        do {
            let e = try ExpressionNode(format: text)
            return .success(try e.value(with: .null, variables: variables, source: text))
        } catch let e as any SourceDiagnostic {
            return .failure(ReplError(diagnostic: e))
        } catch {
            return .failure(ReplError("\(error)"))
        }
    }

    func set(_ argument: String) -> Reply {
        if argument.isEmpty {
            if variables.isEmpty { return Reply(output: "no variables; :set $NAME = value") }
            return Reply(output: variables.keys.sorted().map { name in
                "$\(name) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(variables[name] ?? .null)))
            }.joined(separator: "\n"))
        }
        let parts = argument.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = VariableName.parse(parts[0]) else {
            if parts[0].isEmpty || parts[0] == "$" {
                return failure("usage: :set $NAME = value (a constant such as 42, 'text', {1, 2}); :set $NAME removes it")
            }
            return failure("'\(parts[0])' is not a variable name: " + VariableName.rule)
        }
        guard parts.count == 2 else {
            variables[name] = nil
            return Reply(output: "$\(name) removed")
        }
        switch constant(parts[1]) {
        case .success(let v):
            variables[name] = v
            return Reply(output: "$\(name) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(v))))
        case .failure(let e):
            return e.reply(style)
        }
    }

    func setArguments(_ argument: String) -> Reply {
        if argument == "none" {
            arguments = []
            return Reply(output: "no arguments")
        }
        if !argument.isEmpty {
            switch constant("{" + argument + "}") {
            case .success(.array(let values)): arguments = values
            case .success: return failure("usage: :args value, value, … (constants for %@, %d, %K in order)")
            case .failure(let e): return e.reply(style)
            }
        }
        if arguments.isEmpty { return Reply(output: "no arguments; :args 1980, 'Lem' binds %@ and %d in order") }
        return Reply(output: arguments.enumerated().map { i, v in
            "#\(i + 1) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(v)))
        }.joined(separator: "\n"))
    }

    func use(_ argument: String) -> Reply {
        guard !argument.isEmpty else { return Reply(output: loadedDescription) }
        guard let i = dataset.collection(named: argument) else {
            return failure(
                "no \(StoreSchema.echoed(argument)) here; there are " + StoreSchema.list(dataset.collections.map(\.name)))
        }
        if i != current {
            current = i
            sort = []
            lastSource = nil
        }
        return Reply(output: dataset.server == nil ? "\(collectionName): \(Self.rows(collection.count))" : "\(collectionName)")
    }

    func load(_ argument: String) -> Reply {
        guard !argument.isEmpty else { return failure("usage: :load FILE (JSON, JSON Lines or SQLite), or :load sample") }
        let path = PostgresURL.matches(argument) ? argument : (argument as NSString).expandingTildeInPath
        do {
            let loaded = argument == "sample" ? try Dataset.sample() : try Dataset.load(path: path)
            dataset.server?.close()
            dataset = loaded
        } catch let e as CommandFailure {
            return failure(e.message)
        } catch {
            return failure("\(error)")
        }
        current = 0
        sort = []
        lastSource = nil
        return Reply(output: loadedDescription)
    }

    func schemaDescription() -> Reply {
        guard let schema = dataset.schema else {
            // JSON: the keys seen and the kinds of value under each.
            var kinds: [String: Set<String>] = collection.records?.kinds() ?? [:]
            for case .dictionary(let d) in collection.rows {
                for (k, v) in d where !v.isNull { kinds[k, default: []].insert(v.typeName) }
            }
            let lines = collection.columns.map { k in
                "  \(TerminalText.visible(k)): " + (kinds[k]?.sorted().joined(separator: " | ") ?? "nil")
            }
            return Reply(output: ([style.bold(collectionName) + " (\(collection.count) objects)"] + lines)
                .joined(separator: "\n"))
        }
        var lines: [String] = []
        for entity in schema.entities {
            let count = dataset.collections.first { $0.name == entity.name }?.rows.count ?? 0
            // Names come from the database, which may hold any character.
            let name = TerminalText.visible(entity.name)
            var about = ["table \(TerminalText.visible(entity.table))"]
            if dataset.server == nil { about.append(Self.rows(count)) }
            if entity.isAbstract { about.append("abstract") }
            if let parent = entity.parent { about.append("parent \(TerminalText.visible(parent))") }
            lines.append(style.bold(name) + style.dim(" (" + about.joined(separator: ", ") + ")"))
            for a in entity.attributes {
                lines.append("  \(TerminalText.visible(a.name)): \(a.type.name)" + (a.isOptional ? "" : ", required"))
            }
            for c in entity.composites {
                let elements = c.elements.map { "\(TerminalText.visible($0.name)) \($0.type.name)" }
                lines.append("  \(TerminalText.visible(c.name)): composite {" + elements.joined(separator: ", ") + "}")
            }
            for r in entity.relationships {
                var kind = [schema.kind(of: r).rawValue]
                if let inverse = r.inverse { kind.append("inverse \(TerminalText.visible(inverse))") }
                if r.isOrdered { kind.append(r.orderColumn.map { "ordered by \(TerminalText.visible($0))" } ?? "ordered") }
                lines.append(
                    "  \(TerminalText.visible(r.name)) → \(TerminalText.visible(r.destination))"
                        + " (" + kind.joined(separator: ", ") + ")")
            }
            for k in entity.unsupportedKeys {
                lines.append(style.dim("  \(TerminalText.visible(k.name)): not in the store (\(TerminalText.visible(k.reason)))"))
            }
        }
        return Reply(output: lines.joined(separator: "\n"))
    }
}
