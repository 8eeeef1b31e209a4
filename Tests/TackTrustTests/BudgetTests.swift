import Testing
import TackTrust

@Suite("Budget")
struct BudgetTests {
    @Test("The default budget carries the documented limits")
    func defaultLimits() {
        let budget = Budget.default
        #expect(budget.signatureChecks == 100)
        #expect(budget.buildSteps == 200_000)
        #expect(budget.maxIntermediates == 6)
    }
}
