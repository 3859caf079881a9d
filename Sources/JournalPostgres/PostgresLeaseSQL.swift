import BridgeCore
import BridgeJournal

/// The journal's lease on PostgreSQL: one row saying which bridge is active (``JournalLease``), and the check
/// every commit makes against it (``PostgresJournalSQL/fencedCommit``).
///
/// Expiry is judged only by the database's clock (`clock_timestamp()`); the holder keeps its own, monotonic,
/// deadline with a margin (``LeaseKeeper``).
enum PostgresLeaseSQL {
    /// Creates the lease row once, free (expired), its epoch carrying on from the journal's start counter
    /// (`meta.epoch`) so that every epoch a lease gives is larger than any an earlier start had.
    static let create: [String] = [
        """
        CREATE TABLE IF NOT EXISTS journal_lease (
            id SMALLINT PRIMARY KEY CHECK (id = 1),
            epoch BIGINT NOT NULL,
            instance TEXT NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL
        )
        """,
        """
        INSERT INTO journal_lease(id, epoch, instance, expires_at)
            SELECT 1, COALESCE((SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'epoch'), 0), '', '-infinity'
        ON CONFLICT (id) DO NOTHING
        """,
        """
        CREATE OR REPLACE FUNCTION vivabridge_lease_lost(holder TEXT, epoch BIGINT) RETURNS INTEGER
        LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the journal''s lease is held by % at epoch %', holder, epoch
                USING ERRCODE = '\(lostState)', DETAIL = holder || ' at epoch ' || epoch;
        END
        $$
        """,
    ]

    /// Takes the lease when it is free (expired or released): a new epoch, `$1` the instance, `$2` the lease's
    /// milliseconds. No row: another bridge holds it.
    static let acquire = """
        UPDATE journal_lease SET epoch = epoch + 1, instance = $1,
            expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000)
        WHERE id = 1 AND expires_at <= clock_timestamp()
        RETURNING epoch
        """

    /// Extends the lease of epoch `$1` by `$2` milliseconds from now. No row: another bridge took it.
    static let renew = """
        UPDATE journal_lease SET expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000)
        WHERE id = 1 AND epoch = $1
        RETURNING epoch
        """

    /// Hands the lease of epoch `$1` over: it is free at once.
    static let release = "UPDATE journal_lease SET expires_at = '-infinity' WHERE id = 1 AND epoch = $1"

    /// Who holds the lease: instance, epoch, and whether it is still running.
    static let holder = "SELECT instance, epoch, expires_at > clock_timestamp() FROM journal_lease WHERE id = 1"

    /// The SQLSTATE of a statement refused by the lease (`vivabridge_lease_lost`, created with the lease's row):
    /// a class of its own, so that the refusal is told by its code, never by its words.
    static let lostState = "VBL01"

    /// A commit's lease check, as common table expressions that precede its writes: the lease row of epoch `$6`,
    /// unexpired, locked `FOR SHARE` until the commit ends (a takeover's `UPDATE` waits for it, and one that
    /// committed first leaves the check empty).
    static let fence = fence(epoch: 6)

    /// ``fence`` with the epoch in parameter `$parameter`.
    static func fence(epoch parameter: Int) -> String {
        """
        fence AS MATERIALIZED (
            SELECT epoch FROM journal_lease WHERE id = 1 AND epoch = $\(parameter) AND expires_at > clock_timestamp()
            FOR SHARE)
        """
    }

    /// Fails the statement, so none of its writes is kept, when the check found no lease: ``lostState``, its
    /// detail naming who holds it (a volatile function of the row, which PostgreSQL calls only for a row the
    /// check leaves, never at planning).
    static let refuseWithoutLease = refuseWithoutLease()

    /// ``refuseWithoutLease`` with `more` after its one column (`, NULL, …`: as many as the statement's).
    static func refuseWithoutLease(_ more: String = "") -> String {
        """
        SELECT vivabridge_lease_lost(l.instance, l.epoch)\(more)
        FROM journal_lease l WHERE l.id = 1 AND NOT EXISTS (SELECT 1 FROM fence)
        """
    }
}
