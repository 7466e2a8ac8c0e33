import Testing

@testable import Sift

/// Inputs found by the fuzz targets in `Fuzz/` (minimised), each checked for
/// the property it broke.
struct FuzzRegressionTests {
    /// Round trip: the printed form parses back to the same tree and prints
    /// the same again.
    @Test(arguments: [
        // `NO` prints as 0, read back as an integer, whose subtraction
        // printed as a negation.
        "NO - x > 1",
        // At the depth limit: the left operand of `- y` printed in brackets,
        // `(x - - - … -s) - y`, was counted a level deeper than written.
        "a == x - " + String(repeating: "-", count: 99) + "s - y",
    ])
    func printedFormReadsBack(input: String) throws {
        let filter = try Filter(input)
        let printed = filter.format
        let again = try Filter(printed)
        #expect(again == filter)
        #expect(again.format == printed)
    }
}
