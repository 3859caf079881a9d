import CZeroMQ

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
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 5 == 0, utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        var out = [UInt8](repeating: 0, count: utf8.count * 4 / 5)
        let ok = out.withUnsafeMutableBufferPointer { dest in
            text.withCString { zmq_z85_decode(dest.baseAddress, $0) != nil }
        }
        return ok ? out : nil
    }
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
    public static func publicKey(forSecretKey secret: String) throws(ZMQError) -> String {
        var publicKey = [CChar](repeating: 0, count: 41)
        try check(zmq_curve_public(&publicKey, secret), "zmq_curve_public")
        return string(publicKey)
    }

    private static func string(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
