import Testing

/// A trait for the suites and tests that use the tables of the PostgreSQL
/// server's `public` schema (the differential suite's Library tables, the
/// SiftPostgres example that reads them): they run one at a time, whatever
/// suite they are in. Swift Testing runs suites in parallel, and these
/// drop and create the same tables; under XCTest they ran one after another.
/// Tests in a schema of their own (`connect(schema:)`) need no such trait.
package struct PublicSchemaTrait: SuiteTrait, TestTrait, TestScoping {
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await PublicSchemaLock.shared.acquire()
        do {
            try await function()
        } catch {
            await PublicSchemaLock.shared.release()
            throw error
        }
        await PublicSchemaLock.shared.release()
    }
}

extension Trait where Self == PublicSchemaTrait {
    /// Runs the suite or test alone among those that use PostgreSQL's `public` schema.
    package static var publicSchema: Self { PublicSchemaTrait() }
}

/// A lock held across suspension points, for ``PublicSchemaTrait``.
actor PublicSchemaLock {
    static let shared = PublicSchemaLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
