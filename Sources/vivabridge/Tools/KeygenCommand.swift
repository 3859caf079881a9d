import ArgumentParser
import Foundation
import ZeroMQ

/// `vivabridge keygen`: a CURVE key pair for the bridge, a client or a relay (docs/SECURITY.md).
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make a CURVE key pair (Z85).",
        discussion: """
            Without --out it prints "public: KEY" and "secret: KEY". With --out NAME it writes NAME.key (the \
            secret key, mode 0600) and NAME.pub (the public key, mode 0644), one Z85 line each, prints only \
            the public key, and refuses to overwrite either file.
            """
    )

    @Option(name: .long, help: "Write NAME.key (secret, 0600) and NAME.pub (public) instead of printing both.")
    var out: String?

    func run() throws {
        guard CurveKeyPair.isAvailable else {
            throw ValidationError("this libzmq was built without CURVE; install Debian's libzmq5 (it has it)")
        }
        let pair = try CurveKeyPair.generate()
        guard let out else {
            print("public: \(pair.publicKey)")
            print("secret: \(pair.secretKey)")
            return
        }
        let secretPath = out + ".key"
        let publicPath = out + ".pub"
        for path in [secretPath, publicPath] where FileManager.default.fileExists(atPath: path) {
            FileHandle.standardError.write(Data("vivabridge: \(path) exists; keygen never overwrites a key\n".utf8))
            throw ExitCode(1)
        }
        try Self.create(CurveKeyFile.contents(pair.secretKey), at: secretPath, mode: 0o600)
        try Self.create(CurveKeyFile.contents(pair.publicKey), at: publicPath, mode: 0o644)
        print("public: \(pair.publicKey)")
        print("wrote \(secretPath) (secret, 0600) and \(publicPath)")
    }

    /// Creates `path` with `mode` from the start (never readable by others, even for a moment).
    private static func create(_ text: String, at path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw ValidationError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        fchmod(descriptor, mode)
        let bytes = Array(text.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else {
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
