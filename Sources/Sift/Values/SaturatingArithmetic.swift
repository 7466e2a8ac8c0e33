/// Saturating arithmetic for budgets and cost bounds: a sum or a product
/// past `Int.max` is `Int.max`.
extension Int {
    func addingSaturating(_ other: Int) -> Int {
        let (r, o) = addingReportingOverflow(other)
        return o ? .max : r
    }

    func multipliedSaturating(by other: Int) -> Int {
        let (r, o) = multipliedReportingOverflow(by: other)
        return o ? .max : r
    }
}
