/// The words each platform's app uses in its callbacks.
///
/// Texts confirmed by Viva's pages and samples: iOS `Transaction successful.`, `Transaction declined by host.`,
/// `aborted`, `nothing to abort`, `Batch opened`, `Batch closed`; Android `(-4) USER_CANCEL`, `(-57) ABORTED`,
/// `(-55) NOTHING_TO_ABORT`, `(-23) REFUND_SERVER_ERROR`, `(-999) UNEXPECTED`,
/// `Transaction Details Fetched`; iOS `Printing Success`, Android `Printing successful` (Viva's reprint pages). The others are the simulator's own choices, listed in `docs/SIMULATOR.md`.
struct Dialect: Sendable {
    let platform: SimulatorPlatform

    /// `status` of a failure: iOS `failed`, Android `fail`.
    var failed: String { platform == .ios ? "failed" : "fail" }
    /// `action` of an abort response: iOS `abort`, Android `ABORT`.
    var abortAction: String { platform == .ios ? "abort" : "ABORT" }
    /// `status` of an abort that stopped a transaction: iOS `success`, Android `fail`.
    var abortedStatus: String { platform == .ios ? "success" : "fail" }
    /// `status` of an abort that found nothing: iOS `success`, Android `fail`.
    var nothingToAbortStatus: String { platform == .ios ? "success" : "fail" }

    /// The message text of `message` in this dialect.
    func text(_ message: Message) -> String {
        switch platform {
        case .ios: iosText(message)
        case .android: androidText(message)
        }
    }

    /// What a callback's `message` says.
    enum Message: Equatable {
        case approved, declined, cardholderCancelled, hostError, saleAborted
        case aborted, nothingToAbort
        case busy
        case invalid(String)
        case unsupportedAction
        case cancelNotFound, alreadyCancelled
        case batchOpened, batchClosed, noOpenBatch, batchNotFound
        case detailsFetched, detailsNotFound
        case printed, nothingToPrint
        case preAuthNotFound, captureTooLarge
        case reportReady
    }

    private func iosText(_ message: Message) -> String {
        switch message {
        case .approved: "Transaction successful."
        case .declined: "Transaction declined by host."
        case .cardholderCancelled: "Transaction cancelled by the cardholder."
        case .hostError: "Communication with the host failed."
        case .saleAborted: "Transaction aborted."
        case .aborted: "aborted"
        case .nothingToAbort: "nothing to abort"
        case .busy: "Another transaction is in progress."
        case .invalid(let reason): reason
        case .unsupportedAction: "Unsupported action."
        case .cancelNotFound: "Transaction not found."
        case .alreadyCancelled: "Transaction already cancelled."
        case .batchOpened: "Batch opened"
        case .batchClosed: "Batch closed"
        case .noOpenBatch: "No open batch."
        case .batchNotFound: "Batch not found."
        case .detailsFetched: "Transaction Details Fetched"
        case .detailsNotFound: "Transaction not found."
        case .printed: "Printing Success"
        case .nothingToPrint: "Transaction not found."
        case .preAuthNotFound: "Pre-authorisation not found."
        case .captureTooLarge: "Amount exceeds the pre-authorised amount."
        case .reportReady: "Report retrieved"
        }
    }

    private func androidText(_ message: Message) -> String {
        switch message {
        case .approved: "Transaction successful."
        case .declined: "(-6) TRANSACTION_DECLINED"
        case .cardholderCancelled: "(-4) USER_CANCEL"
        case .hostError: "(-999) UNEXPECTED"
        case .saleAborted, .aborted: "(-57) ABORTED"
        case .nothingToAbort: "(-55) NOTHING_TO_ABORT"
        case .busy: "(-999) UNEXPECTED - Another transaction is in progress."
        case .invalid(let reason): "(-999) UNEXPECTED - " + reason
        case .unsupportedAction: "(-999) UNEXPECTED - Unsupported action."
        case .cancelNotFound, .alreadyCancelled: "(-23) REFUND_SERVER_ERROR"
        case .batchOpened: "Batch opened"
        case .batchClosed: "Batch closed"
        case .noOpenBatch: "(-999) UNEXPECTED - No open batch."
        case .batchNotFound: "(-999) UNEXPECTED - Batch not found."
        case .detailsFetched: "Transaction Details Fetched"
        case .detailsNotFound: "(-999) UNEXPECTED - Transaction not found."
        case .printed: "Printing successful"
        case .nothingToPrint: "(-999) UNEXPECTED - Transaction not found."
        case .preAuthNotFound: "(-999) UNEXPECTED - Pre-authorisation not found."
        case .captureTooLarge: "(-999) UNEXPECTED - Amount exceeds the pre-authorised amount."
        case .reportReady: "Report retrieved"
        }
    }
}
