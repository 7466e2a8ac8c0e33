/// The release of Sift this code is: the one place the version is written.
/// The `sift` command prints it for `sift --version`.
///
/// ```swift
/// print("Sift \(SiftVersion.current)")   // Sift 0.9.0
/// ```
public enum SiftVersion {
    /// The version as `MAJOR.MINOR.PATCH` (Semantic Versioning): below 1.0,
    /// a minor release may change the public API.
    public static let current = "0.9.0"
}
