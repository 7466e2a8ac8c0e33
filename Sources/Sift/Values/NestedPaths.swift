extension Value {
    /// Values named by key paths (`place.city`) as nested dictionaries
    /// (`["place": ["city": …]]`), for results that key values by path: a
    /// fetched row's composite attributes, a grouped fetch's keys. A path
    /// that is also another's prefix keeps its own value. With
    /// `nilWhenAllNil`, a dictionary whose values are all nil is nil
    /// instead, at every level.
    package static func nested(paths elements: [String: Value], nilWhenAllNil: Bool) -> Value {
        if nilWhenAllNil && elements.values.allSatisfy(\.isNull) { return .null }
        var out: [String: Value] = [:]
        var inner: [String: [String: Value]] = [:]
        for (path, value) in elements {
            guard let dot = path.firstIndex(of: ".") else {
                out[path] = value
                continue
            }
            inner[String(path[..<dot]), default: [:]][String(path[path.index(after: dot)...])] = value
        }
        for (name, elements) in inner where out[name] == nil {
            out[name] = nested(paths: elements, nilWhenAllNil: nilWhenAllNil)
        }
        return .dictionary(out)
    }
}
