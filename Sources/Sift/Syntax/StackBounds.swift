#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Glibc's module does not export this GNU extension.
@_silgen_name("pthread_getattr_np")
private func getThreadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif

/// Where the current thread's stack ends, so that recursion can stop with an
/// error before it runs out: threads other than the main one often have
/// small stacks (512 KiB on Apple platforms), and a bracket level of the
/// parser takes several frames.
enum StackBounds {
    /// The lowest address of the current thread's stack plus `margin`, or 0
    /// when the platform does not say.
    static func floor(margin: UInt) -> UInt {
        #if os(Linux)
        var attributes = pthread_attr_t()
        guard getThreadAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        return UInt(bitPattern: address) + margin
        #elseif canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return top - size + margin
        #else
        return 0
        #endif
    }

    /// An address in the caller's stack frame.
    @inline(never)
    static func current() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}
