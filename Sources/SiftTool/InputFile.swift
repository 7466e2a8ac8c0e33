import Foundation

/// Files named on the command line.
enum InputFile {
    /// Throws unless `path` names a regular file (a symbolic link is
    /// followed). The commands that open a database or read a whole file
    /// (`check`, `query`, `sql --schema`, `schema`, `repl` and `:load`) need
    /// one: opening a FIFO that has no writer blocks for ever, a directory
    /// cannot be read, and a device such as `/dev/zero` never ends. `filter`
    /// reads its input as a stream and accepts any of them.
    static func requireRegular(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw CommandFailure("no such file: \(path)") }
            throw CommandFailure("cannot read \(path): \(String(cString: strerror(code)))")
        }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFDIR: kind = "a directory"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw CommandFailure("\(path) is \(kind); expected a regular file")
    }
}
