/// The terminal app a simulated lane stands in for: it decides the callback dialect.
///
/// iOS answers `status=failed` with plain messages (`Transaction%20declined%20by%20host.`) and a lower-case
/// `action=abort`; Android answers `status=fail` with bracketed codes and raw spaces
/// (`(-57) ABORTED`, `action=ABORT`). See `docs/SIMULATOR.md` for every difference.
public enum SimulatorPlatform: String, Sendable, CaseIterable {
    /// The Viva Terminal app for iOS (Tap to Pay on iPhone).
    case ios
    /// The Viva Terminal app for Android.
    case android
}
