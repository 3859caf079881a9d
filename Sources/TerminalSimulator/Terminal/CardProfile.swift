/// A test card the simulated cardholders present: masked number, type and EMV application id.
struct CardProfile: Sendable {
    let bin: String
    let last4: String
    let cardType: String
    let aid: String

    /// The number as the app shows it: first 6, six stars, last 4 (`479275******9999`).
    var accountNumber: String { bin + "******" + last4 }

    /// The cards used, picked by the lane's generator.
    static let all: [CardProfile] = [
        CardProfile(bin: "479275", last4: "9999", cardType: "VISA", aid: "A0000000031010"),
        CardProfile(bin: "537489", last4: "1831", cardType: "Debit Mastercard", aid: "A0000000041010"),
        CardProfile(bin: "516732", last4: "4417", cardType: "MASTERCARD", aid: "A0000000041010"),
        CardProfile(bin: "492182", last4: "0032", cardType: "VISA DEBIT", aid: "A0000000032010"),
        CardProfile(bin: "676770", last4: "7702", cardType: "MAESTRO", aid: "A0000000043060"),
    ]

    /// Verification methods an app reports; iOS (Tap to Pay) reads cards contactless only.
    static func verificationMethods(for platform: SimulatorPlatform) -> [String] {
        switch platform {
        case .ios: ["CONTACTLESS", "CONTACTLESS - PIN"]
        case .android: ["CONTACTLESS", "CHIP-PIN", "CHIP", "CONTACTLESS - PIN"]
        }
    }
}
