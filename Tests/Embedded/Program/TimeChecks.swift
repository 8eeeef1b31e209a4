// Times as Int64 seconds since 1970 on every word size: after 2038 (past a
// 32-bit Int), the last UTCTime year 2049, and the RFC 5280 §4.1.2.5
// "no well-defined expiration" notAfter 99991231235959Z.

import TackDER
#if !CORE_ONLY
import TackX509
#endif

func checkTimes(_ tally: inout Tally) {
    // (seconds since 1970, GeneralizedTime contents, ISO 8601 form).
    let cases: [(Int64, StaticString, StaticString)] = [
        (0, "19700101000000Z", "1970-01-01T00:00:00Z"),
        (2_147_483_647, "20380119031407Z", "2038-01-19T03:14:07Z"),
        (2_147_483_648, "20380119031408Z", "2038-01-19T03:14:08Z"),
        (2_524_607_999, "20491231235959Z", "2049-12-31T23:59:59Z"),
        (2_537_697_600, "20500601120000Z", "2050-06-01T12:00:00Z"),
        (4_294_967_296, "21060207062816Z", "2106-02-07T06:28:16Z"),
        (253_402_300_799, "99991231235959Z", "9999-12-31T23:59:59Z"),
        (-1, "19691231235959Z", "1969-12-31T23:59:59Z"),
        (-62_167_219_200, "00000101000000Z", "0000-01-01T00:00:00Z"),
    ]
    for (seconds, generalized, iso) in cases {
        do throws(DERError) {
            let time = try DERTime(secondsSince1970: seconds)
            tally.check(time.secondsSince1970 == seconds, "\(iso): seconds do not round-trip")
            tally.check(Array(time.description.utf8) == utf8(iso), "\(seconds) s is \(time), expected \(iso)")
            let der = [0x18, 15] + utf8(generalized)
            let parsed = try DER.read(der) { (reader: inout DERReader) throws(DERError) -> DERTime in try reader.readTime() }
            tally.check(parsed == time, "GeneralizedTime \(generalized) reads as \(parsed)")
            tally.check(parsed.secondsSince1970 == seconds, "GeneralizedTime \(generalized): \(parsed.secondsSince1970) s")
        } catch {
            tally.check(false, "\(iso): \(error)")
        }
    }
    // One second outside years 0...9999 is refused, not wrapped.
    for seconds: Int64 in [253_402_300_800, -62_167_219_201, .max, .min] {
        do throws(DERError) {
            let time = try DERTime(secondsSince1970: seconds)
            tally.check(false, "\(seconds) s accepted as \(time)")
        } catch {
            tally.check(error.reason == .invalidDate, "\(seconds) s: \(error)")
        }
    }
    // UTCTime 49 is 2049, 50 is 1950 (RFC 5280 §4.1.2.5.1).
    do throws(DERError) {
        let late = try DER.read([0x17, 13] + utf8("491231235959Z")) { (reader: inout DERReader) throws(DERError) -> DERTime in try reader.readTime() }
        tally.check(late.secondsSince1970 == 2_524_607_999, "UTCTime 491231235959Z is \(late)")
        let early = try DER.read([0x17, 13] + utf8("500101000000Z")) { (reader: inout DERReader) throws(DERError) -> DERTime in try reader.readTime() }
        tally.check(early.secondsSince1970 == -631_152_000, "UTCTime 500101000000Z is \(early)")
    } catch {
        tally.check(false, "UTCTime: \(error)")
    }
    #if !CORE_ONLY
    // A validity period to 9999-12-31 contains instants after 2038 and 2106.
    do throws(DERError) {
        let validity = Certificate.Validity(
            notBefore: try DERTime(secondsSince1970: 1_700_000_000),
            notAfter: try DERTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        tally.check(validity.contains(secondsSince1970: 2_147_483_648), "9999 validity excludes 2038")
        tally.check(validity.contains(secondsSince1970: 4_294_967_296), "9999 validity excludes 2106")
        tally.check(validity.contains(secondsSince1970: 253_402_300_799), "9999 validity excludes its last second")
        tally.check(!validity.contains(secondsSince1970: 253_402_300_800), "9999 validity includes year 10000")
        tally.check(!validity.contains(secondsSince1970: 1_699_999_999), "validity includes a second before notBefore")
    } catch {
        tally.check(false, "validity: \(error)")
    }
    #endif
}
