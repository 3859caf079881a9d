import Testing

@testable import TerminalSimulator

@Suite("The simulated app's transaction book")
struct TransactionBookTests {
    private static func sale(_ number: Int, _ outcome: SimulatedTransaction.Outcome = .approved, client: String? = nil)
        -> SimulatedTransaction
    {
        SimulatedTransaction(
            kind: .sale, outcome: outcome, amount: number, clientTransactionId: client ?? "ctid-\(number)",
            referenceNumber: "ref-\(number)", orderCode: "order-\(number)", shortOrderCode: "short-\(number)")
    }

    @Test("look-ups find the latest transaction of an identifier, as the host saw it")
    func appendedSinceLastLookUp() {
        var book = TransactionBook(limit: 10, indexed: true)
        book.append(Self.sale(1))
        #expect(book.approvedSale(reference: "ref-1", orderCode: nil, shortOrderCode: nil) == 0)
        book.append(Self.sale(2))
        book.append(Self.sale(3, .declined))
        #expect(book.approvedSale(reference: nil, orderCode: "order-2", shortOrderCode: nil) == 1)
        #expect(book.approvedSale(reference: nil, orderCode: nil, shortOrderCode: "short-3") == nil, "declined")
        #expect(book.hostSale(clientTransactionId: "ctid-3") == 2, "a declined sale reached the host")
        book.append(Self.sale(4, client: "ctid-1"))
        #expect(book.hostSale(clientTransactionId: "ctid-1") == 3, "the later sale with that id")
        book.append(Self.sale(5, .cardholderCancelled))
        #expect(book.hostSale(clientTransactionId: "ctid-5") == nil, "never reached the host")
    }

    @Test("a reference number's match wins over a later order code's; a cancelled sale is still found")
    func precedence() {
        var book = TransactionBook(limit: 10, indexed: true)
        book.append(Self.sale(1))
        var second = Self.sale(2)
        second.orderCode = "ref-1"
        book.append(second)
        #expect(book.approvedSale(reference: "ref-1", orderCode: "ref-1", shortOrderCode: nil) == 0)
        #expect(book.approvedSale(reference: "nothing", orderCode: "ref-1", shortOrderCode: "short-1") == 1)
        var cancelled = Self.sale(1)
        cancelled.cancelled = true
        book.replace(at: 0, with: cancelled)
        #expect(book.approvedSale(reference: "ref-1", orderCode: nil, shortOrderCode: nil) == 0)
    }

    @Test("a trimmed transaction is found no more, by the table or by a search")
    func trimmedAreForgotten() {
        var book = TransactionBook(limit: 2, indexed: true)
        for number in 0..<3 { book.append(Self.sale(number)) }
        #expect(book.approvedSale(reference: "ref-0", orderCode: nil, shortOrderCode: nil) == 0)
        #expect(book.hostSale(clientTransactionId: "ctid-1") == 1)
        book.append(Self.sale(3))
        #expect(book.records.count == 2)
        #expect(book.record(at: 0) == nil)
        #expect(book.approvedSale(reference: "ref-0", orderCode: nil, shortOrderCode: nil) == nil)
        #expect(book.approvedSale(reference: "ref-1", orderCode: nil, shortOrderCode: nil) == nil)
        #expect(book.hostSale(clientTransactionId: "ctid-1") == nil)
        #expect(book.approvedSale(reference: "ref-2", orderCode: nil, shortOrderCode: nil) == 2)
        #expect(book.hostSale(clientTransactionId: "ctid-3") == 3)
        #expect(book.totalCount == 4)
    }
}
