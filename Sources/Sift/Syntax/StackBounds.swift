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
    /// The current thread's stack, `low..<top`; an empty region (never near
    /// its end) when the platform does not say.
    static func bounds() -> StackBounds.Region {
        #if os(Linux)
        var attributes = pthread_attr_t()
        guard getThreadAttributes(pthread_self(), &attributes) == 0 else { return .unknown }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return .unknown }
        let low = UInt(bitPattern: address)
        return Region(low: low, top: low + UInt(size))
        #elseif canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let low = top - UInt(pthread_get_stacksize_np(pthread_self()))
        return Region(low: low, top: top)
        #else
        return .unknown
        #endif
    }

    struct Region {
        let low: UInt
        let top: UInt

        static let unknown = Region(low: 0, top: 0)
    }

    /// An address in the caller's stack frame.
    @inline(never)
    static func current() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

extension StackBounds {
    /// The current thread's stack region, found once per thread: finding it
    /// is a system call (on Linux, reading /proc/self/maps for the main
    /// thread), too slow for a check at every node of a tree. The key is
    /// made once; each thread's value is that thread's own, written once,
    /// and freed when the thread ends.
    static func threadRegion() -> Region {
        // Without a key of its own (none left), the region is found each time.
        guard let key = ThreadRegionKey.key else { return bounds() }
        if let stored = pthread_getspecific(key) {
            return stored.assumingMemoryBound(to: Region.self).pointee
        }
        let region = bounds()
        let stored = UnsafeMutablePointer<Region>.allocate(capacity: 1)
        stored.initialize(to: region)
        if pthread_setspecific(key, stored) != 0 { stored.deallocate() }
        return region
    }

    /// Whether the caller is within `margin` bytes of the end of its
    /// thread's stack. An address outside the stack (a sanitizer's fake
    /// frame) is not counted.
    static func isNearEnd(margin: UInt) -> Bool {
        let region = threadRegion()
        let here = current()
        return here >= region.low && here < region.low &+ margin
    }
}

private enum ThreadRegionKey {
    static let key: pthread_key_t? = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { $0.deallocate() }
        #else
        let status = pthread_key_create(&key) { $0?.deallocate() }
        #endif
        return status == 0 ? key : nil
    }()
}
