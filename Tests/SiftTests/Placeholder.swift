import Testing
@testable import Sift
@Test func placeholder() {}
