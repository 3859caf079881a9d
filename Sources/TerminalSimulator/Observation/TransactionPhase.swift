/// Where a simulated lane's app is in its current transaction.
public enum TransactionPhase: String, Sendable, CaseIterable {
    /// No transaction in flight.
    case idle
    /// Waiting for the cardholder's card: an abort now stops the transaction.
    case cardPresentment
    /// The card is read and the request is with the host: an abort now gets no answer.
    case host
    /// The transaction is done and the app shows the screens the request asked for (`show_receipt`,
    /// `show_transaction_result`, `show_rating`) before it returns to the caller: an abort gets no answer,
    /// the callback follows once they are dismissed.
    case screens
}
