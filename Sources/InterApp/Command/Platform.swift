/// The terminal app's operating system, which decides the callback dialect and the request's `callback` form.
public enum Platform: String, Sendable, Codable, CaseIterable {
    /// Viva Terminal on iOS (Tap to Pay on iPhone).
    case ios
    /// Viva Terminal on Android.
    case android
}
