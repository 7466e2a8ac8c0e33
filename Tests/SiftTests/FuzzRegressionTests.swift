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
    ])
    func printedFormReadsBack(input: String) throws {
        let filter = try Filter(input)
        let printed = filter.format
        let again = try Filter(printed)
        #expect(again == filter)
        #expect(again.format == printed)
    }
}
