// Former names, kept so that code written for them gets an error that
// names the new one. They are unavailable rather than deprecated: a
// deprecated alias would still be found by name lookup, and a file that
// imports GRDB (whose `FetchRequest` is a protocol) next to Sift would
// still find two `FetchRequest`s. Unavailable declarations are set aside
// when another declaration of the name is visible.

/// Renamed ``FetchSpecification``, which does not clash with GRDB's `FetchRequest` or SwiftUI's.
@available(*, unavailable, renamed: "FetchSpecification")
public typealias FetchRequest = FetchSpecification
