import InterApp

/// A parsed callback with its typed `result` worked out once: the correlator reads the result for the
/// journal, the reply and the event, and `Callback.result` costs about as much as the parse itself.
package struct ReceivedCallback {
    let callback: Callback
    /// The callback's fields as the reply's `result` (``Callback/result``), computed once.
    let result: JSONObject
    /// Its relay's number and URL hash when the relay numbered it (v1.3): journaled with it.
    let relay: RelayCallbackKey?

    package init(_ callback: Callback, relay: RelayCallbackKey? = nil) {
        self.callback = callback
        result = callback.result
        self.relay = relay
    }

    var kind: Callback.Kind { callback.kind }
    var status: String { callback.status }
    var message: String { callback.message }
    var isSuccess: Bool { callback.isSuccess }
    var clientTransactionId: String? { callback.clientTransactionId }
    func field(_ name: String) -> String? { callback.field(name) }
}
