extension Parser {
    // MARK: - Numbers

    /// The value of a number token. A decimal integer that does not fit 64
    /// bits is read as a JSON number is (``Value/exactInteger(_:)``): a
    /// `.decimal` while `Decimal` holds it exactly (38 significant digits),
    /// beyond that the nearest double, and an error beyond the range of a
    /// double. Hexadecimal, octal and binary integers beyond 64 bits are
    /// errors.
    func numberValue(_ token: Token, negative: Bool) throws(ParseError) -> Value {
        let form = NumberForm(rawValue: token.flag) ?? .integer
        let start = Int(token.start)
        let end = Int(token.end)
        switch form {
        case .integer:
            var magnitude: UInt64 = 0
            var overflow = false
            for i in start..<end {
                let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(UInt64(bytes[i] &- 0x30))
                magnitude = m2
                overflow = overflow || o1 || o2
            }
            if !overflow, let value = Parser.signed(magnitude, negative: negative) { return .int(value) }
            let digits = text(token).drop { $0 == "0" }
            if let exact = Value.exactInteger((negative ? "-" : "") + digits) { return exact }
            guard let double = Double(digits), double.isFinite else {
                throw error("'\(text(token))' is beyond the range of a double", token.range)
            }
            return .double(negative ? -double : double)
        case .real:
            let double = Double(text(token)) ?? .infinity
            return .double(negative ? -double : double)
        case .hexadecimal, .octal, .binary:
            let radix: UInt64 = form == .hexadecimal ? 16 : (form == .octal ? 8 : 2)
            var magnitude: UInt64 = 0
            for i in (start + 2)..<end {
                let b = bytes[i] | 0x20
                let digit = UInt64(b >= 0x61 ? b - 0x61 + 10 : b &- 0x30)
                let (m1, o1) = magnitude.multipliedReportingOverflow(by: radix)
                let (m2, o2) = m1.addingReportingOverflow(digit)
                guard !o1 && !o2 else {
                    throw error("'\(text(token))' does not fit in a 64-bit integer", token.range)
                }
                magnitude = m2
            }
            guard let value = Parser.signed(magnitude, negative: negative) else {
                throw error("'\(text(token))' does not fit in a 64-bit integer", token.range)
            }
            return .int(value)
        }
    }

    private static func signed(_ magnitude: UInt64, negative: Bool) -> Int? {
        if negative {
            if magnitude == UInt64(Int.max) + 1 { return Int.min }
            return Int(exactly: magnitude).map { -$0 }
        }
        return Int(exactly: magnitude)
    }

    // MARK: - Strings

    /// The contents of a string token with escapes processed:
    /// `\n \t \r \a \b \f \v \\ \' \"`, `\ooo` (octal), `\xhh`, `\uhhhh`.
    /// Any other escaped character stands for itself.
    func stringValue(_ token: Token) throws(ParseError) -> String {
        let start = Int(token.start) + 1
        let end = Int(token.end) - 1
        if token.flag == 0 {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            let escapeStart = i
            i += 1
            let e = bytes[i]
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A); i += 1
            case UInt8(ascii: "t"): out.append(0x09); i += 1
            case UInt8(ascii: "r"): out.append(0x0D); i += 1
            case UInt8(ascii: "a"): out.append(0x07); i += 1
            case UInt8(ascii: "b"): out.append(0x08); i += 1
            case UInt8(ascii: "f"): out.append(0x0C); i += 1
            case UInt8(ascii: "v"): out.append(0x0B); i += 1
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value: UInt32 = 0
                var count = 0
                while count < 3, i < end, bytes[i] &- 0x30 < 8 {
                    value = value * 8 + UInt32(bytes[i] - 0x30)
                    i += 1
                    count += 1
                }
                append(scalar: value, to: &out)
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                i += 1
                guard let value = hexValue(i, 2, end) else {
                    throw error("expected two hex digits after '\\x'", SourceRange(escapeStart, min(i + 2, end)))
                }
                i += 2
                append(scalar: value, to: &out)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                i += 1
                guard var value = hexValue(i, 4, end) else {
                    throw error("expected four hex digits after '\\u'", SourceRange(escapeStart, min(i + 4, end)))
                }
                i += 4
                if value >= 0xD800 && value < 0xDC00 {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 1 < end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] | 0x20 == UInt8(ascii: "u"),
                        let low = hexValue(i + 2, 4, end), low >= 0xDC00 && low < 0xE000
                    else {
                        throw error("unpaired UTF-16 surrogate in '\\u' escape", SourceRange(escapeStart, i))
                    }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if value >= 0xDC00 && value < 0xE000 {
                    throw error("unpaired UTF-16 surrogate in '\\u' escape", SourceRange(escapeStart, i))
                }
                append(scalar: value, to: &out)
            default:
                // `\\`, `\'`, `\"` and any other character: the character itself.
                out.append(e)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func hexValue(_ start: Int, _ count: Int, _ end: Int) -> UInt32? {
        guard start + count <= end else { return nil }
        var value: UInt32 = 0
        for i in start..<(start + count) {
            let b = bytes[i]
            guard Lexer.isDigit(b, form: .hexadecimal) else { return nil }
            let lower = b | 0x20
            value = value * 16 + UInt32(lower >= 0x61 ? lower - 0x61 + 10 : b - 0x30)
        }
        return value
    }

    private func append(scalar value: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: String(scalar).utf8)
    }
}
