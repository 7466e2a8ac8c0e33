import Foundation
import Sift

/// Dates as rows print them (JSON output and tables alike): ISO 8601 in
/// UTC with milliseconds, for every number of seconds a store may hold.
///
/// - Years 0001 to 9999 print as Foundation's `ISO8601FormatStyle` gives
///   them, `2024-05-01T12:00:00.000Z` (before 1582-10-15 its calendar is the
///   Julian one, as in `NSDate`'s description and in the ISO 8601 text that
///   `Date.ISO8601FormatStyle` reads back from a store).
/// - Other years print in ISO 8601's expanded form, as JavaScript's
///   `toISOString` writes them: a sign and at least six digits,
///   `+010000-01-01T00:00:00.000Z`, `-000001-12-31T00:00:00.000Z`, reckoned
///   here in the proleptic Gregorian calendar. Foundation's formatter gives
///   nonsense beyond its range (1e15 s, 1e300 s and +inf all printed as
///   506713-02-07), so these are computed from the seconds directly.
/// - Seconds at or beyond ±2^63 (some 292 billion years), which no 64-bit
///   count holds, and the non-finite ones print as the date literal of the
///   predicate language, as `sift format` prints the same date:
///   `CAST(1e+300, "NSDate")`, `CAST(1e999, "NSDate")`, `CAST(nan, "NSDate")`,
///   the number stored and never a calendar date.
enum DateText {
    /// Seconds since 2001-01-01T00:00:00Z of 0001-01-01T00:00:00Z in
    /// Foundation's calendar (Julian; proleptic Gregorian 0000-12-30).
    static let firstFoundationSecond: Double = -63_114_076_800
    /// Seconds since 2001-01-01T00:00:00Z of 10000-01-01T00:00:00Z.
    static let firstFiveDigitSecond: Double = 252_423_993_600

    /// The date as ISO 8601 text, or as a `CAST(…, "NSDate")` literal when
    /// no calendar date stands for it (see ``DateText``).
    static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds >= firstFoundationSecond && seconds < firstFiveDigitSecond {
            return date.formatted(
                Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .gmt))
        }
        // 2^63 and beyond (and NaN, which fails both tests) have no Int64.
        guard seconds > -9_223_372_036_854_775_808.0 && seconds < 9_223_372_036_854_775_808.0 else {
            return FormatPrinter.format(.constant(.date(date)))
        }
        return expanded(seconds)
    }

    /// Proleptic Gregorian date and time of `seconds` since 2001-01-01,
    /// with the year signed and at least six digits outside 0000…9999.
    static func expanded(_ seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        let milliseconds = min(999, Int(((seconds - whole) * 1000).rounded(.down)))
        // Days since 2001-01-01 and the second of that day, floored.
        let total = Int64(whole)
        var days = total / 86_400
        var second = total % 86_400
        if second < 0 {
            second += 86_400
            days -= 1
        }
        let (year, month, day) = civil(daysSince2001: days)
        let digits = String(year.magnitude)
        let yearText: String
        if (0...9999).contains(year) {
            yearText = String(repeating: "0", count: 4 - digits.count) + digits
        } else {
            yearText = (year < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        }
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = String(repeating: "0", count: 3 - String(milliseconds).count) + String(milliseconds)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):"
            + "\(two(second % 60)).\(fraction)Z"
    }

    /// Year (astronomical: 0 is 1 BC), month and day of the proleptic
    /// Gregorian calendar for a count of days since 2001-01-01, by whole
    /// 400-year cycles of 146,097 days counted from 2000-03-01, so that a
    /// leap day ends each cycle's years (Howard Hinnant's `civil_from_days`).
    static func civil(daysSince2001 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // 2001-01-01 is day 306 after 2000-03-01.
        let z = days + 306
        let cycle = floorDivision(z, 146_097)
        let dayOfEra = z - cycle * 146_097  // 0…146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0…399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0…365, from March 1
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0…11, March first
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = 2000 + cycle * 400 + yearOfEra + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
