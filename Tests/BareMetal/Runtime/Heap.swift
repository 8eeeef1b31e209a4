// The heap: `posix_memalign` and `free`, the two allocation entry points of the
// Embedded Swift runtime (swift_slowAlloc / swift_slowDealloc), over the static
// region the linker script reserves between the end of .bss and the stack
// (`__tack_heap_start` ..< `__tack_heap_end`).
//
// A first-fit free list kept in address order, coalescing on free. Every block
// starts with an 8-byte header (its size, header included, a multiple of 8, and a
// tag word); the payload follows it, so it is 8-byte aligned. An alignment above 8
// is served by over-allocating and leaving a second header, tagged `alignedTag`,
// just before the aligned payload, which records the distance back to the block.
// One core, no interrupts that allocate: no locking.
//
// It counts what the measurements need: allocations, bytes in use (headers and
// padding included, i.e. what the region must hold) and their high-water mark.

/// The block and free-list headers live in the heap region itself.
let blockTag: UInt32 = 0x7ACC_A110
let alignedTag: UInt32 = 0x7ACC_A11A
let freeTag: UInt32 = 0x7ACC_F4EE
let headerSize = 8

/// What the allocator has done since the start (or the last `resetPeak`).
public struct HeapStatistics {
    /// `posix_memalign` calls that succeeded.
    public var allocations = 0
    /// `free` calls of a non-null pointer.
    public var frees = 0
    /// Calls that found no block large enough.
    public var failures = 0
    /// Bytes in blocks handed out now (headers and alignment padding included).
    public var bytesInUse = 0
    /// The largest `bytesInUse` since the last `Heap.resetPeak()`.
    public var peakBytesInUse = 0
    /// The largest `bytesInUse` of the whole run.
    public var runPeakBytesInUse = 0
    /// The size of the region.
    public var capacity = 0
}

nonisolated(unsafe) var heapStatistics = HeapStatistics()
/// First free block (address order), 0 for none; 0 also before the first call.
nonisolated(unsafe) var freeList: UInt = 0
nonisolated(unsafe) var heapReady = false

public enum Heap {
    /// The counters so far.
    public static var statistics: HeapStatistics { heapStatistics }

    /// Starts a new high-water mark at the bytes in use now.
    public static func resetPeak() { heapStatistics.peakBytesInUse = heapStatistics.bytesInUse }
}

@inline(__always) func word(_ address: UInt) -> UnsafeMutablePointer<UInt32> {
    // The addresses come from the region the linker script reserves: never null.
    UnsafeMutablePointer<UInt32>(bitPattern: address).unsafelyUnwrapped
}

/// A free block: word 0 its size, word 1 the tag, word 2 the next free block.
func makeFree(_ block: UInt, size: UInt, next: UInt) {
    word(block).pointee = UInt32(truncatingIfNeeded: size)
    word(block &+ 4).pointee = freeTag
    word(block &+ 8).pointee = UInt32(truncatingIfNeeded: next)
}

func setUpHeap() {
    let start = (symbolAddress(heapStartSymbol) &+ 7) & ~7
    let end = symbolAddress(heapEndSymbol) & ~7
    heapStatistics.capacity = Int(bitPattern: end &- start)
    makeFree(start, size: end &- start, next: 0)
    freeList = start
    heapReady = true
}

@_cdecl("posix_memalign")
public func posixMemalign(_ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32 {
    if !heapReady { setUpHeap() }
    let align = UInt(bitPattern: max(alignment, 8))
    // alignment must be a power of two (POSIX: EINVAL, 22).
    guard align & (align &- 1) == 0, size >= 0, size < 0x1000_0000 else { return 22 }
    // The block: header, payload rounded to 8, and room to move the payload up to `align`.
    var need = UInt(bitPattern: headerSize) &+ ((UInt(bitPattern: size) &+ 7) & ~7)
    if align > 8 { need &+= align }
    if need < 16 { need = 16 }  // room for a free-list node when it comes back
    var previous: UInt = 0
    var block = freeList
    while block != 0 {
        let blockSize = UInt(word(block).pointee)
        let next = UInt(word(block &+ 8).pointee)
        if blockSize >= need {
            // Split when the rest can hold a free block of its own.
            var taken = blockSize
            var after = next
            if blockSize &- need >= 16 {
                taken = need
                after = block &+ need
                makeFree(after, size: blockSize &- need, next: next)
            }
            if previous == 0 { freeList = after } else { word(previous &+ 8).pointee = UInt32(truncatingIfNeeded: after) }
            word(block).pointee = UInt32(truncatingIfNeeded: taken)
            word(block &+ 4).pointee = blockTag
            var payload = block &+ UInt(bitPattern: headerSize)
            if payload & (align &- 1) != 0 {
                payload = (payload &+ align &- 1) & ~(align &- 1)
                word(payload &- 8).pointee = UInt32(truncatingIfNeeded: payload &- block)
                word(payload &- 4).pointee = alignedTag
            }
            heapStatistics.allocations &+= 1
            heapStatistics.bytesInUse &+= Int(bitPattern: taken)
            if heapStatistics.bytesInUse > heapStatistics.peakBytesInUse {
                heapStatistics.peakBytesInUse = heapStatistics.bytesInUse
                if heapStatistics.bytesInUse > heapStatistics.runPeakBytesInUse {
                    heapStatistics.runPeakBytesInUse = heapStatistics.bytesInUse
                }
            }
            result.pointee = UnsafeMutableRawPointer(bitPattern: payload)
            return 0
        }
        previous = block
        block = next
    }
    heapStatistics.failures &+= 1
    return 12  // ENOMEM
}

/// C `free`. Swift reserves the name `free` for its runtime (defining it from
/// Swift draws a warning), so the function is `tack_free` and cortex-m4.ld binds
/// `free` to it (`free = tack_free`).
@_cdecl("tack_free")
public func free(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    let payload = UInt(bitPattern: pointer)
    var block = payload &- UInt(bitPattern: headerSize)
    if word(payload &- 4).pointee == alignedTag {
        block = payload &- UInt(word(payload &- 8).pointee)
    }
    // A pointer this heap did not hand out, or freed twice: stop loudly.
    guard word(block &+ 4).pointee == blockTag else { heapCorrupted() }
    var size = UInt(word(block).pointee)
    heapStatistics.frees &+= 1
    heapStatistics.bytesInUse &-= Int(bitPattern: size)
    // Insert in address order, then merge with the neighbours that touch it.
    var previous: UInt = 0
    var next = freeList
    while next != 0 && next < block {
        previous = next
        next = UInt(word(next &+ 8).pointee)
    }
    if next != 0 && block &+ size == next {
        size &+= UInt(word(next).pointee)
        next = UInt(word(next &+ 8).pointee)
    }
    makeFree(block, size: size, next: next)
    if previous == 0 {
        freeList = block
    } else if previous &+ UInt(word(previous).pointee) == block {
        makeFree(previous, size: UInt(word(previous).pointee) &+ size, next: next)
    } else {
        word(previous &+ 8).pointee = UInt32(truncatingIfNeeded: block)
    }
}

func heapCorrupted() -> Never {
    for byte in "cortex-m4: free() of a pointer the heap did not hand out\n".utf8 { semihostingWrite(byte) }
    semihostingExit(3)
}
