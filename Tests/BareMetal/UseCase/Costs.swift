// The one line scripts/baremetal-check.sh reads the measurements from.


/// `cortex-m4 measured: <variant> instructions N allocations N heap N stack N ...`
/// and the heap's totals.
func reportCosts(_ costs: [(StaticString, VerdictCost)]) {
    var line: Line = "\(architecture) measured:"
    for (name, cost) in costs {
        line.append(contentsOf: " \(name) instructions \(cost.instructions) allocations \(cost.allocations) heap \(cost.heapBytes) stack \(cost.stackBytes);")
    }
    let heap = Heap.statistics
    line.append(contentsOf: " heap peak \(heap.runPeakBytesInUse) of \(heap.capacity), allocations \(heap.allocations), failures \(heap.failures); stack \(Stack.capacity)")
    report(line)
}
