/// TackSignature: big integers and RSA PKCS#1 v1.5 / PSS, ECDSA and Ed25519
/// signature verification, in pure Swift.
///
/// The module's types arrive with issue 5; this namespace anchors the module.
public enum TackSignature {}
