import Testing
import TackDigest
@testable import TackTLS

/// RFC 8448 §3 (the simple 1-RTT handshake): every secret, traffic key and IV, and
/// both Finished values, derived by TLS13KeySchedule from the trace's inputs (the
/// x25519 shared secret and the handshake messages).
@Suite("TLS 1.3 key schedule: RFC 8448 §3")
struct KeyScheduleTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    // The trace's handshake messages (RFC 8448 §3).
    static let clientHello = hex("010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001")
    static let serverHello = hex("020000560303a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e2692800130100002e00330024001d0020c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f002b00020304")
    static let encryptedExtensions = hex("080000240022000a00140012001d00170018001901000101010201030104001c0002400100000000")
    static let certificate = hex("0b0001b9000001b50001b0308201ac30820115a003020102020102300d06092a864886f70d01010b0500300e310c300a06035504031303727361301e170d3136303733303031323335395a170d3236303733303031323335395a300e310c300a0603550403130372736130819f300d06092a864886f70d010101050003818d0030818902818100b4bb498f8279303d980836399b36c6988c0c68de55e1bdb826d3901a2461eafd2de49a91d015abbc9a95137ace6c1af19eaa6af98c7ced43120998e187a80ee0ccb0524b1b018c3e0b63264d449a6d38e22a5fda430846748030530ef0461c8ca9d9efbfae8ea6d1d03e2bd193eff0ab9a8002c47428a6d35a8d88d79f7f1e3f0203010001a31a301830090603551d1304023000300b0603551d0f0404030205a0300d06092a864886f70d01010b05000381810085aad2a0e5b9276b908c65f73a7267170618a54c5f8a7b337d2df7a594365417f2eae8f8a58c8f8172f9319cf36b7fd6c55b80f21a03015156726096fd335e5e67f2dbf102702e608ccae6bec1fc63a42a99be5c3eb7107c3c54e9b9eb2bd5203b1c3b84e0a8b2f759409ba3eac9d91d402dcc0cc8f8961229ac9187b42b4de10000")
    static let certificateVerify = hex("0f000084080400805a747c5d88fa9bd2e55ab085a61015b7211f824cd484145ab3ff52f1fda8477b0b7abc90db78e2d33a5c141a078653fa6bef780c5ea248eeaaa785c4f394cab6d30bbe8d4859ee511f602957b15411ac027671459e46445c9ea58c181e818e95b8c3fb0bf3278409d3be152a3da5043e063dda65cdf5aea20d53dfacd42f74f3")
    static let serverFinished = hex("140000209b9b141d906337fbd2cbdce71df4deda4ab42c309572cb7fffee5454b78f0718")
    static let sharedSecret = hex("8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d")

    @Test("secrets, keys, IVs and Finished values of the trace")
    func rfc8448() throws {
        let suite = try #require(SuiteParameters(.aes128GCMSHA256))
        var schedule = TLS13KeySchedule(hash: .sha256)
        var transcript = Self.clientHello + Self.serverHello
        #expect(try digest(.sha256, transcript) == Self.hex("860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8"))
        try schedule.deriveHandshakeSecrets(sharedSecret: Self.sharedSecret, transcriptHash: try digest(.sha256, transcript))
        #expect(schedule.handshakeSecret == Self.hex("1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac"))
        #expect(schedule.clientHandshakeTrafficSecret == Self.hex("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21"))
        #expect(schedule.serverHandshakeTrafficSecret == Self.hex("b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38"))
        let serverHandshake = try schedule.trafficKeys(schedule.serverHandshakeTrafficSecret, keyLength: suite.keyLength)
        #expect(serverHandshake.key == Self.hex("3fce516009c21727d0f2e4e86ee403bc"))
        #expect(serverHandshake.iv == Self.hex("5d313eb2671276ee13000b30"))
        let clientHandshake = try schedule.trafficKeys(schedule.clientHandshakeTrafficSecret, keyLength: suite.keyLength)
        #expect(clientHandshake.key == Self.hex("dbfaa693d1762c5b666af5d950258d01"))
        #expect(clientHandshake.iv == Self.hex("5bd3c71b836e0b76bb73265f"))

        transcript += Self.encryptedExtensions + Self.certificate + Self.certificateVerify
        let serverVerify = try schedule.finishedData(schedule.serverHandshakeTrafficSecret, transcriptHash: try digest(.sha256, transcript))
        #expect(serverVerify == Array(Self.serverFinished[4...]))
        transcript += Self.serverFinished
        #expect(try digest(.sha256, transcript) == Self.hex("9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13"))
        let clientVerify = try schedule.finishedData(schedule.clientHandshakeTrafficSecret, transcriptHash: try digest(.sha256, transcript))
        #expect(clientVerify == Self.hex("a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61"))

        try schedule.deriveApplicationSecrets(transcriptHash: try digest(.sha256, transcript))
        #expect(schedule.masterSecret == Self.hex("18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919"))
        #expect(schedule.clientApplicationTrafficSecret == Self.hex("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5"))
        #expect(schedule.serverApplicationTrafficSecret == Self.hex("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643"))
        let serverApplication = try schedule.trafficKeys(schedule.serverApplicationTrafficSecret, keyLength: suite.keyLength)
        #expect(serverApplication.key == Self.hex("9f02283b6c9c07efc26bb9f2ac92e356"))
        #expect(serverApplication.iv == Self.hex("cf782b88dd83549aadf1e984"))
        let clientApplication = try schedule.trafficKeys(schedule.clientApplicationTrafficSecret, keyLength: suite.keyLength)
        #expect(clientApplication.key == Self.hex("17422dda596ed5d9acd890e3c63f5051"))
        #expect(clientApplication.iv == Self.hex("5b78923dee08579033e523d9"))
    }

    @Test("the trace's ServerHello parses: version, suite, key share")
    func serverHelloParses() throws {
        let hello = try ServerHello(Array(Self.serverHello[4...]))
        #expect(hello.suite == .aes128GCMSHA256)
        #expect(!hello.isHelloRetryRequest)
        var reader = hello.extensionBlock
        let extensions = try readExtensions(
            &reader, offered: [ExtensionType.keyShare, ExtensionType.supportedVersions],
            allowed: [ExtensionType.keyShare, ExtensionType.supportedVersions])
        #expect(try hello.negotiatedVersion(extensions) == 0x0304)
    }

    @Test("TLS 1.2 PRF (P_SHA256) known answer")
    func prf() throws {
        // The widely used P_SHA256 test vector (IETF TLS WG mailing list, 2009):
        // secret 9bbe436ba940f017b17652849a71db35, seed a0ba9f936cda311827a6f796ffd5198c, label "test label".
        let output = try tls12PRF(
            .sha256, secret: Self.hex("9bbe436ba940f017b17652849a71db35"), label: "test label",
            seed: Self.hex("a0ba9f936cda311827a6f796ffd5198c"), length: 100)
        #expect(output == Self.hex("e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14baf9af0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff70187347b66"))
    }
}
