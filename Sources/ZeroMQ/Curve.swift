import CZeroMQ
import Foundation

/// Z85, the text form of CURVE keys (ZeroMQ RFC 32).
public enum Z85 {
    /// Encodes `bytes` (a multiple of 4 long) as Z85 text; nil otherwise.
    public static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count % 4 == 0 else { return nil }
        var out = [CChar](repeating: 0, count: bytes.count * 5 / 4 + 1)
        let ok = out.withUnsafeMutableBufferPointer { dest in
            bytes.withUnsafeBufferPointer { zmq_z85_encode(dest.baseAddress, $0.baseAddress, $0.count) != nil }
        }
        return ok ? String(decoding: out.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Decodes Z85 text (a multiple of 5 characters long); nil when it is not valid Z85.
    ///
    /// Checked here rather than by libzmq, whose decoder (4.3.4) lets some characters outside the Z85
    /// alphabet through and does not special-case the empty string.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 5 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 5 * 4)
        for start in stride(from: 0, to: utf8.count, by: 5) {
            var value: UInt64 = 0
            for char in utf8[start..<start + 5] {
                let digit = digits[Int(char)]
                guard digit >= 0 else { return nil }
                value = value * 85 + UInt64(digit)
            }
            guard value <= UInt64(UInt32.max) else { return nil }
            for shift in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        return out
    }

    /// True when `text` is a CURVE key in Z85: 40 characters that decode to 32 bytes.
    public static func isKey(_ text: String) -> Bool {
        text.utf8.count == 40 && decode(text) != nil
    }

    private static let alphabet = Array(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)

    /// The value of each byte as a Z85 digit, -1 for bytes outside the alphabet.
    private static let digits: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = Int8(value) }
        return table
    }()
}

/// A CURVE key file (`NAME.key` for a secret key, `NAME.pub` for a public one): one line of Z85.
public enum CurveKeyFile {
    /// The key `path` holds (surrounding white space ignored), or nil when the file cannot be read or
    /// does not hold 40 characters of Z85.
    public static func read(_ path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return Z85.isKey(key) ? key : nil
    }

    /// The file's text for `key`.
    public static func contents(_ key: String) -> String { key + "\n" }
}

/// A CURVE key pair, both keys as 40 characters of Z85.
public struct CurveKeyPair: Sendable, Equatable {
    /// The public key, to give to peers.
    public let publicKey: String
    /// The secret key; keep it out of logs.
    public let secretKey: String

    /// Creates a key pair from known keys.
    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether this libzmq was built with CURVE.
    public static var isAvailable: Bool { zmq_has("curve") == 1 }

    /// Generates a new key pair (`zmq_curve_keypair`).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        try check(zmq_curve_keypair(&publicKey, &secretKey), "zmq_curve_keypair")
        return CurveKeyPair(publicKey: string(publicKey), secretKey: string(secretKey))
    }

    /// Derives the public key that belongs to a Z85 secret key (`zmq_curve_public`).
    ///
    /// - Throws: `EINVAL` when `secret` is not 40 characters of Z85 (libzmq itself would decode a longer
    ///   text past the end of its 32-byte buffer).
    public static func publicKey(forSecretKey secret: String) throws(ZMQError) -> String {
        guard Z85.isKey(secret) else { throw ZMQError(code: EINVAL, operation: "zmq_curve_public") }
        var publicKey = [CChar](repeating: 0, count: 41)
        try check(zmq_curve_public(&publicKey, secret), "zmq_curve_public")
        return string(publicKey)
    }

    private static func string(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
