#!/usr/bin/env python3
# A model of what the journal writer writes per sale (issue 17, docs/PERFORMANCE.md 6.11 and 6.16): the bridge's
# tables and statements driven from Python's sqlite3, PRE sales journaled first, then N sales in commits of PER
# sales (insert; then callback + final update), printing CPU per sale and WAL bytes per sale. Python's own cost per
# statement is in the CPU figure: compare variants with each other (6.16 put the base variant at 26.6-27.6 us a sale
# where the bridge's writer spends about 19 for the same statements).
# The first argument names the variant; words in it change the model:
#   nomatched, nolate  without the indexes the bridge had until v1.1-fewer-index-writes (the bridge today has neither)
#   noauto             callbacks without AUTOINCREMENT
#   noid               no index on the command id (the final update finds its row by rowid): what the id costs
#   wr                 the command table WITHOUT ROWID, keyed by its id (not with noid: it needs the key)
#   once               each sale written once, whole, when it ends (one insert, no update, so one commit a
#                      batch of PER sales instead of two)
#   log                an append-only log (issue 34): one table under an INTEGER PRIMARY KEY sequence and an index
#                      on the (rising) time only; the accepted command is one row, its callback and its outcome two
#                      more; no id index (the ids are kept in memory), nothing updated in place
#   keys-seq, keys-rand  LevelDB's db_bench_sqlite3 fillseqbatch/fillrandbatch shape: rows of a 16-byte key and a
#                      100-byte value in commits of 1,000, the key rising or random (PRE rows first, then N)
# The second argument is the page size; FP, FIELDS and REPLY set the fingerprint's, callback's and reply's lengths;
# PRE, PER (16 unless set; 6.16 used 12, about what the bridge's writer takes a commit under load) and N as above.
#   python3 scripts/journal-index-model.py nomatched-nolate 4096
#   PER=12 python3 scripts/journal-index-model.py nomatched-nolate-noid 4096
import os, random, sqlite3, sys, tempfile, time, uuid

variant = sys.argv[1]
page = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
path = os.path.join(tempfile.mkdtemp(), f"j-{variant}-{page}.db")
for s in ("", "-wal", "-shm"):
    try: os.remove(path + s)
    except FileNotFoundError: pass
db = sqlite3.connect(path, isolation_level=None)
db.execute(f"PRAGMA page_size={page}")
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL"); db.execute("PRAGMA wal_autocheckpoint=0")
auto = "AUTOINCREMENT" if "noauto" not in variant else ""
IDPK = "" if "noid" in variant else "PRIMARY KEY"
WR = " WITHOUT ROWID" if "wr" in variant else ""
db.executescript(f"""
CREATE TABLE commands (id TEXT {IDPK} NOT NULL, lane TEXT, action TEXT NOT NULL, fingerprint TEXT NOT NULL,
 client_transaction_id TEXT, state TEXT NOT NULL, outcome TEXT, reply TEXT, late INTEGER NOT NULL DEFAULT 0,
 deadline_ms INTEGER, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, client TEXT,
 amount INTEGER, tip INTEGER, error_code TEXT, failure_reason TEXT, reference_number TEXT, order_code TEXT, card TEXT, batch TEXT,
 resolved_at TEXT, resolved_by TEXT, resolved_note TEXT){WR};
CREATE INDEX commands_outstanding ON commands(state) WHERE state != 'final';
CREATE INDEX commands_unknown_sales ON commands(lane, client_transaction_id) WHERE outcome = 'unknown';
CREATE TABLE callbacks (seq INTEGER PRIMARY KEY {auto}, lane TEXT NOT NULL, received_ms INTEGER NOT NULL, fields TEXT NOT NULL, matched_id TEXT, disposition TEXT NOT NULL);
CREATE INDEX commands_created ON commands(created_ms);
CREATE INDEX commands_pre_auths_by_order_code ON commands(lane, order_code) WHERE action = 'pre_auth';
""")
if "nomatched" not in variant:
    db.execute("CREATE INDEX callbacks_matched ON callbacks(matched_id)")
if "nolate" not in variant:
    db.execute("CREATE INDEX commands_late_by_client_transaction_id ON commands(lane, client_transaction_id, action) WHERE client_transaction_id IS NOT NULL")
fp = "x" * int(os.environ.get("FP","76")); fields = "f" * int(os.environ.get("FIELDS","496")); reply = "r" * int(os.environ.get("REPLY","582"))
ins = "INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply, deadline_ms, created_ms, updated_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
cb = "INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition) VALUES (?,?,?,?,?)"
upd = "UPDATE commands SET state='final', outcome=?, reply=?, late=?, updated_ms=?, amount=?, tip=?, error_code=?, failure_reason=?, reference_number=?, order_code=?, card=?, batch=?, resolved_at=?, resolved_by=?, resolved_note=? WHERE " + ("rowid=?" if "noid" in variant else "id=?")
t = 1_700_000_000_000
fullins = "INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply, deadline_ms, created_ms, updated_ms, amount, tip, reference_number, order_code, card) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
if variant.startswith("log"):
    db.executescript("""
    CREATE TABLE log (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, command_seq INTEGER, id TEXT, lane TEXT,
     action TEXT, fingerprint TEXT, client_transaction_id TEXT, at_ms INTEGER NOT NULL, outcome TEXT, reply TEXT,
     fields TEXT, disposition TEXT, amount INTEGER, tip INTEGER, reference_number TEXT, order_code TEXT, card TEXT);
    CREATE INDEX log_at ON log(at_ms);
    """)
logins = "INSERT INTO log(kind, id, lane, action, fingerprint, client_transaction_id, at_ms) VALUES (1,?,?,?,?,?,?)"
logcb = "INSERT INTO log(kind, command_seq, lane, at_ms, fields, disposition) VALUES (2,?,?,?,?,?)"
logend = "INSERT INTO log(kind, command_seq, at_ms, outcome, reply, amount, tip, reference_number, order_code, card) VALUES (3,?,?,?,?,?,?,?,?,?)"
clock = [t]
def sale_batch(ids, lanes):
    if variant.startswith("log"):
        clock[0] += 1
        db.execute("BEGIN")
        rows = {i: db.execute(logins, (i, l, "sale", fp, i, clock[0])).lastrowid for i, l in zip(ids, lanes)}
        db.execute("COMMIT")
        db.execute("BEGIN")
        for i, l in zip(ids, lanes):
            db.execute(logcb, (rows[i], l, clock[0], fields, "matched"))
            db.execute(logend, (rows[i], clock[0], "success", reply, 1000, 0, "123456", "1234567890", "4111********1111"))
        db.execute("COMMIT")
        return
    if "once" in variant:
        db.execute("BEGIN")
        for i, l in zip(ids, lanes):
            db.execute(fullins, (i, l, "sale", fp, i, "final", "success", reply, None, t, t, 1000, 0, "123456", "1234567890", "4111********1111"))
            db.execute(cb, (l, t, fields, i, "matched"))
        db.execute("COMMIT")
        return
    db.execute("BEGIN")
    rows = {}
    for i, l in zip(ids, lanes):
        rows[i] = db.execute(ins, (i, l, "sale", fp, i, "sent", None, None, t, t, t)).lastrowid
    db.execute("COMMIT")
    db.execute("BEGIN")
    for i, l in zip(ids, lanes):
        db.execute(cb, (l, t, fields, i, "matched"))
        db.execute(upd, ("success", reply, 0, t, 1000, 0, None, None, "123456", "1234567890", "4111********1111", None, None, None, None, rows[i] if "noid" in variant else i))
    db.execute("COMMIT")
if variant.startswith("keys-"):
    db.execute("CREATE TABLE kv (k BLOB PRIMARY KEY, v BLOB NOT NULL)")
    pre = int(os.environ.get("PRE", "1000000")); n = int(os.environ.get("N", "200000")); value = os.urandom(100)
    counter = [0]
    def key():
        counter[0] += 1
        return counter[0].to_bytes(16, "big") if variant == "keys-seq" else os.urandom(16)
    def fill(count):
        for _ in range(0, count, 1000):
            db.execute("BEGIN")
            db.executemany("INSERT INTO kv VALUES (?, ?)", ((key(), value) for _ in range(1000)))
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    fill(pre)
    start = time.process_time(); wall = time.monotonic()
    fill(n)
    cpu = time.process_time() - start; wall = time.monotonic() - wall
    print(f"{variant:24s} page {page:5d}: {cpu/n*1e6:6.2f} us cpu/row, {wall/n*1e6:6.2f} us wall/row over {pre:,} rows")
    sys.exit(0)
pre = int(os.environ.get("PRE", "100000")); per = int(os.environ.get("PER", "16")); n = int(os.environ.get("N", "40000"))
for k in range(0, pre, 1000):
    ids = [str(uuid.uuid4()) for _ in range(1000)]
    sale_batch(ids, [f"lane-{random.randrange(64)}" for _ in ids])
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
start = time.process_time()
for k in range(0, n, per):
    ids = [str(uuid.uuid4()) for _ in range(per)]
    sale_batch(ids, [f"lane-{random.randrange(64)}" for _ in ids])
cpu = time.process_time() - start
n = -(-n // per) * per  # the sales written: whole batches of PER
wal = os.path.getsize(path + "-wal")
print(f"{variant:24s} page {page:5d}: {cpu/n*1e6:6.1f} us cpu/sale, WAL {wal/n/1024:6.1f} KB/sale")
