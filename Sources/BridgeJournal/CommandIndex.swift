import BridgeCore

/// Where each command id sits in the journal's log, kept in memory (the "keydir" of Bitcask's design), so that
/// journaling a command never writes a B-tree under a random key and finding one reads a row by its rising
/// sequence.
///
/// Each id takes one 8-byte slot of an open-addressing table, at most three quarters full, so between 11 and 22
/// bytes a command as the table doubles (docs/JOURNAL.md): the slot holds the top 28 bits of a 64-bit hash of
/// the id (its tag, which also chooses the slot) and the command's 36-bit sequence. Ids with the same tag are
/// all kept; the journal reads each candidate's row and compares the id, so a shared tag costs a read, never a
/// wrong answer (a new id shares the tag of a given one about once in 270 million). Swift's `Hasher` is seeded
/// per process, which suits a table rebuilt from the log at every start. Rows pruned from the journal keep their
/// slot until the next start (a read that finds nothing: harmless).
package struct CommandIndex {
    /// Each slot: tag << 36 | sequence; 0 marks an empty slot (tags are never 0).
    private var slots: [UInt64]
    /// log2 of the slot count.
    private var bits: Int
    /// Ids held.
    package private(set) var count = 0

    private static let sequenceBits = 36
    private static let sequenceMask: UInt64 = (1 << 36) - 1
    private static let tagBits = 28

    /// An empty index with room for `capacity` ids before it grows.
    package init(capacity: Int = 1 << 16) {
        bits = 10
        while (1 << bits) * 3 / 4 < capacity { bits += 1 }
        slots = Array(repeating: 0, count: 1 << bits)
    }

    /// The memory its table takes, in bytes.
    package var bytes: Int { slots.count * MemoryLayout<UInt64>.stride }

    /// Notes that the command `id` sits at `sequence` (below 2^36: 68 billion commands).
    package mutating func insert(_ id: String, at sequence: Int64) {
        precondition(
            sequence >= 0 && UInt64(sequence) <= Self.sequenceMask, "journal sequence \(sequence) out of range")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(Self.tag(id) << Self.sequenceBits | UInt64(sequence))
        count += 1
    }

    /// False when `id` was certainly never inserted; true when it (or an id of the same tag) was.
    package func mayContain(_ id: String) -> Bool {
        let tag = Self.tag(id)
        var slot = home(tag)
        while slots[slot] != 0 {
            if slots[slot] >> Self.sequenceBits == tag { return true }
            slot = (slot + 1) & (slots.count - 1)
        }
        return false
    }

    /// The sequences of the commands whose id has the tag `id` has, newest first: nearly always none or one.
    package func candidates(for id: String) -> [Int64] {
        let tag = Self.tag(id)
        var found: [Int64] = []
        var slot = home(tag)
        while slots[slot] != 0 {
            if slots[slot] >> Self.sequenceBits == tag { found.append(Int64(slots[slot] & Self.sequenceMask)) }
            slot = (slot + 1) & (slots.count - 1)
        }
        return found.count > 1 ? found.sorted(by: >) : found
    }

    /// The first slot to look at for `tag`: its top bits (spread over the table past 2^28 slots).
    private func home(_ tag: UInt64) -> Int {
        bits <= Self.tagBits ? Int(tag >> UInt64(Self.tagBits - bits)) : Int(tag << UInt64(bits - Self.tagBits))
    }

    private mutating func place(_ value: UInt64) {
        var slot = home(value >> Self.sequenceBits)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = value
    }

    private mutating func grow() {
        let old = slots
        bits += 1
        slots = Array(repeating: 0, count: 1 << bits)
        for value in old where value != 0 { place(value) }
    }

    private static func tag(_ id: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(id)
        let tag = UInt64(bitPattern: Int64(hasher.finalize())) >> UInt64(64 - tagBits)
        return tag == 0 ? 1 : tag
    }
}

/// What a journal store keeps in memory of its log: where each id sits, and the sequence the next accepted
/// command gets. Each store (SQLite's, PostgreSQL's) holds one, read from its log at open.
package struct LogPlaces {
    package private(set) var index: CommandIndex
    private var next: Int64

    package init(index: CommandIndex = CommandIndex(), next: Int64 = 1) {
        self.index = index
        self.next = next
    }

    /// Gives a new command the next sequence and notes its id.
    package mutating func admit(id: String) -> Int64 {
        let sequence = next
        next += 1
        index.insert(id, at: sequence)
        return sequence
    }

    /// `entries` as a synchronous commit writes them (a retry after a failed write; tests): a command inserted
    /// without a sequence is given one, an outcome without one is given its command's newest.
    package mutating func placing(_ entries: [JournalEntry]) -> [JournalEntry] {
        entries.map { entry -> JournalEntry in
            switch entry {
            case .insert(var row) where row.seq == nil:
                row.seq = admit(id: row.id)
                return .insert(row)
            case .final(var row, let summary, let late, let at) where row.seq == nil:
                row.seq = index.candidates(for: row.id).first
                return .final(row, summary: summary, late: late, atMs: at)
            default:
                return entry
            }
        }
    }
}
