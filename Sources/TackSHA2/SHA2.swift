/// TackSHA2: SHA-224, SHA-256, SHA-384 and SHA-512, written in Swift.
///
/// Placeholder while the implementation lands (issue 3).
public enum TackSHA2 {}
