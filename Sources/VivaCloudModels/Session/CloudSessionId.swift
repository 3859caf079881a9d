import Crypto
import Foundation

/// The `sessionId` of a command sent through Viva's Cloud Terminal API: a name-based UUID (RFC 9562,
/// version 5: SHA-1) of the command's id in the namespace of the journal's identity.
///
/// The same command id in the same journal always maps to the same session, so a command re-sent after a
/// lost answer or a crash is asked for (or posted again) under its one session and never under two; two
/// stores sharing one Viva account, each with its own journal, never collide.
public enum CloudSessionId {
    /// The session id of `commandId` in the journal whose identity is `journal`.
    public static func derive(journal: UUID, commandId: String) -> String {
        var hash = Insecure.SHA1()
        withUnsafeBytes(of: journal.uuid) { hash.update(bufferPointer: $0) }
        hash.update(data: Data(commandId.utf8))
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return UUID(uuid: uuid).uuidString.lowercased()
    }
}
