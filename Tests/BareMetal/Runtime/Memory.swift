// memcpy, memmove and memset: LLVM lowers copies and fills of the standard
// library and the core to calls of these, which a hosted build takes from the
// C library. This module is compiled with `-Xllvm -disable-loop-idiom-all`, so
// that the loops below are not themselves recognised as a memcpy/memset and
// turned into calls of the function they implement. They copy a word at a time
// where source and destination are both word-aligned, else a byte at a time:
// small and simple; the core's hot paths (hashing, bignum arithmetic) do not
// copy through them.

@_cdecl("memcpy")
public func memcpy(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    copyForward(destination, source, count)
    return destination
}

@_cdecl("memmove")
public func memmove(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int) -> UnsafeMutableRawPointer {
    let d = UInt(bitPattern: destination)
    let s = UInt(bitPattern: source)
    if d <= s || d >= s &+ UInt(bitPattern: count) {
        copyForward(destination, source, count)
    } else {
        // Overlap with the destination above the source: copy from the end.
        var index = count
        while index > 0 {
            index &-= 1
            destination.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
        }
    }
    return destination
}

@_cdecl("memset")
public func memset(_ destination: UnsafeMutableRawPointer, _ value: Int32, _ count: Int) -> UnsafeMutableRawPointer {
    let byte = UInt8(truncatingIfNeeded: value)
    var index = 0
    if UInt(bitPattern: destination) & 3 == 0 {
        let word = UInt32(byte) &* 0x0101_0101
        while index &+ 4 <= count {
            destination.storeBytes(of: word, toByteOffset: index, as: UInt32.self)
            index &+= 4
        }
    }
    while index < count {
        destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
        index &+= 1
    }
    return destination
}

/// memcmp, for the standard library's comparisons of contiguous bytes.
@_cdecl("memcmp")
public func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
    var index = 0
    while index < count {
        let x = a.load(fromByteOffset: index, as: UInt8.self)
        let y = b.load(fromByteOffset: index, as: UInt8.self)
        if x != y { return x < y ? -1 : 1 }
        index &+= 1
    }
    return 0
}

@inline(__always)
func copyForward(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, _ count: Int) {
    var index = 0
    if (UInt(bitPattern: destination) | UInt(bitPattern: source)) & 3 == 0 {
        while index &+ 4 <= count {
            destination.storeBytes(of: source.load(fromByteOffset: index, as: UInt32.self), toByteOffset: index, as: UInt32.self)
            index &+= 4
        }
    }
    while index < count {
        destination.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
        index &+= 1
    }
}
