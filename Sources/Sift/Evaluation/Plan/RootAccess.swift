import Foundation

/// How a compiled predicate reads its root object (`SELF`): its keys,
/// resolved once per key path node, and its value as a whole; and the kind
/// of access the plan (``EvaluationPlan``) chooses the fast paths from.
struct RootAccess<Root>: Sendable {
    typealias Reader = @Sendable (Root) throws(Failure) -> Value
    let kind: AccessKind
    let value: @Sendable (Root) -> Value
    let reader: @Sendable (String) -> Reader
    /// The typed reader of a whole key path, when the root's type has one.
    var typedPath: @Sendable ([String]) -> KeyReader<Root>? = { _ in nil }
    /// For ``AccessKind/dictionary``: the test of a comparison planned as a
    /// dictionary walk, given the general test to fall back on. (Made where
    /// `Root` is ``Value``, for the compiler of `Root` to call directly.)
    typealias Test = @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool
    var dictionaryTest: @Sendable (DynamicComparison.ValueTest, @escaping Test) -> Test = { _, general in general }
}

extension RootAccess where Root == Value {
    /// Values read by the general path, with the comparisons of
    /// ``DynamicComparison`` on the fast paths.
    static let dynamic: RootAccess = {
        var access = RootAccess(
            kind: .dictionary, value: { $0 },
            reader: { key in { v throws(Failure) in try KeyValueAccess.value(v, key: key) } })
        access.dictionaryTest = { t, general in DynamicComparison.make(t, general: general) }
        return access
    }()
}

/// The address of an object of a ``KeyValueReadable`` type that a
/// ``TypedFilter`` reads in place: an element of an array's buffer, or a
/// value the filter was given, valid only during the evaluation.
@frozen @usableFromInline
struct ObjectAddress {
    @usableFromInline let raw: UnsafeRawPointer

    @inlinable @inline(__always)
    init(_ raw: UnsafeRawPointer) {
        self.raw = raw
    }

    @inline(__always)
    func object<T>(_: T.Type) -> T { raw.assumingMemoryBound(to: T.self).pointee }
}

extension RootAccess where Root == JSONSlots {
    /// Access to records read into slots by `scan`. Its keys are the keys
    /// the scan read: the predicate's own, each read as decoding the whole
    /// record would give it.
    static func record(_ scan: JSONScan) -> RootAccess {
        RootAccess(
            kind: .record(scan), value: { scan.record($0) },
            reader: { key in
                guard let node = scan.node(named: key, among: scan.roots) else {
                    // The scan reads every key the predicate reads; a key it
                    // did not read is never taken for a missing one.
                    return { _ throws(Failure) in throw Failure(.unsupported, "the record's key '\(key)' was not read") }
                }
                return { slots throws(Failure) in scan.value(node, in: slots) }
            })
    }
}

extension RootAccess where Root == ObjectAddress {
    /// Access to objects of type `T` by address: stored properties given by
    /// key path are loaded from their offsets, the other readers are called
    /// with the object.
    static func typed<T: KeyValueReadable>(_: T.Type) -> RootAccess {
        RootAccess(
            kind: .object, value: { .object(ObjectValue($0.object(T.self))) },
            reader: { key in
                if let read = T.keyTable.reader(forKey: key) {
                    return { a throws(Failure) in read(a.object(T.self)) }
                }
                if key == "self" || key == "SELF" { return { a throws(Failure) in .object(ObjectValue(a.object(T.self))) } }
                let name = String(describing: T.self)
                return { _ throws(Failure) in throw Failure(.unknownKey, "\(name) has no key '\(key)'") }
            },
            typedPath: { keys in
                guard let first = keys.first else { return nil }
                return KeyReader.path(keys, from: T.keyTable.typedReader(forKey: first))?.atAddress()
            })
    }
}

extension KeyReader {
    /// This reader for an object given by its address: a load at the
    /// property's offset when it is stored inline, else a call with the object.
    func atAddress() -> KeyReader<ObjectAddress> {
        guard let offset else {
            return composed(after: { $0.object(Root.self) }, at: nil)
        }
        func load<V>(_ kind: (@escaping @Sendable (ObjectAddress) -> V) -> KeyReader<ObjectAddress>.Kind)
            -> KeyReader<ObjectAddress>
        {
            KeyReader<ObjectAddress>(kind: kind { $0.raw.load(fromByteOffset: offset, as: V.self) }, offset: offset)
        }
        switch kind {
        case .int: return load(KeyReader<ObjectAddress>.Kind.int)
        case .double: return load(KeyReader<ObjectAddress>.Kind.double)
        case .bool: return load(KeyReader<ObjectAddress>.Kind.bool)
        case .string: return load(KeyReader<ObjectAddress>.Kind.string)
        case .strings: return load(KeyReader<ObjectAddress>.Kind.strings)
        case .value: return load(KeyReader<ObjectAddress>.Kind.value)
        case .object:
            return composed(after: { $0.object(Root.self) }, at: 0)
        }
    }
}
