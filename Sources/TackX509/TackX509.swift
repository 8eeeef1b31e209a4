/// TackX509: the X.509 certificate model, names, extensions, SubjectPublicKeyInfo,
/// SPKI reconstruction from raw key bytes, and pins.
///
/// The module's types arrive with issue 4; this namespace anchors the module.
public enum TackX509 {}
