import Foundation

/// The command line's arguments as the process received them: bytes that
/// are not UTF-8 are an error naming the argument and the byte, never
/// replaced with U+FFFD (a predicate would then compare other text than
/// the one given), as they are in files.
enum ArgumentBytes {
    /// The first argument (from 1, after the program's name) that is not
    /// UTF-8, with the offset of its first invalid byte, in `arguments`.
    static func firstInvalid(_ arguments: [[UInt8]]) -> (argument: Int, offset: Int)? {
        for (i, bytes) in arguments.enumerated() {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            var offset = 0
            parsing: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let scalar): offset += scalar.count
                case .error: return (i + 1, offset)
                case .emptyInput: break parsing
                }
            }
        }
        return nil
    }

    /// The process's arguments after its name, as bytes.
    static var process: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let p = CommandLine.unsafeArgv[i] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
    }

    /// The error for the process's arguments, if one is not UTF-8.
    static func error() -> String? {
        guard let (argument, offset) = firstInvalid(process) else { return nil }
        return "error: argument \(argument) is not UTF-8: the byte at offset \(offset) does not begin a UTF-8 "
            + "character (arguments are read as UTF-8 and never repaired)"
    }
}
