/// An (issuer, subject) pair of node numbers: a signature check the search has made.
struct SignatureLink: Hashable {
    let issuer: Int
    let subject: Int
}
