/// The live lanes page served at `/`: one self-contained document (inline CSS and JavaScript, nothing
/// fetched from elsewhere, no build step) that follows `/events` and is meant for a wall screen.
///
/// A row per lane (link, command in flight and its age, last result in the words of ``LastResultLabel``,
/// open batch), today's money outcomes per kind (sales approved, payments declined, refunds, aborted, unknown,
/// not delivered: a batch opened, an abort or a reprint is no sale approved; each card carries `data-kind`),
/// and banners when the bridge restarted (a new `epoch`) or went silent (no heartbeat for two intervals). Each
/// lane's row carries `data-lane`, `data-link`, `data-outcome` and, for a result that came on the stream (not in
/// the snapshot), `data-result-seq`, for scripts and tests; `?beats=N` stops following after N heartbeats,
/// `?beats=0` right after the first snapshot (scripts/page-check). The header names the bridge's `instance` and
/// `role` (from `/readyz`, every 2 s; `#role` carries `data-role`), and a standby says so instead of "no
/// contact".
enum LanesPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Lanes · vivabridge</title>
        <style>
        :root {
          --bg: #0b1220; --panel: #131c2e; --line: #22304a; --text: #e6edf7; --muted: #8ea0bd;
          --green: #22c55e; --red: #ef4444; --amber: #f59e0b; --blue: #60a5fa; --grey: #64748b;
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; background: var(--bg); color: var(--text);
          font: 18px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header { display: flex; align-items: center; gap: 1.5rem; padding: 1rem 2rem; background: var(--panel);
          border-bottom: 1px solid var(--line); }
        header h1 { margin: 0; font-size: 1.6rem; font-weight: 650; letter-spacing: .01em; }
        header h1 span { color: var(--muted); font-weight: 400; }
        #live { display: flex; align-items: center; gap: .5rem; font-size: 1.05rem; color: var(--muted); }
        #live i { width: .8rem; height: .8rem; border-radius: 50%; background: var(--grey); display: inline-block; }
        #live.on i { background: var(--green); box-shadow: 0 0 .6rem var(--green); }
        #live.off i { background: var(--red); }
        #role { font-size: 1.05rem; color: var(--muted); }
        #clock { margin-left: auto; font-size: 1.6rem; font-variant-numeric: tabular-nums; }
        .banner { margin: 1rem 2rem 0; padding: .9rem 1.2rem; border-radius: .6rem; font-size: 1.15rem; display: none; }
        .banner.show { display: block; }
        #silence { background: #450a0a; border: 1px solid var(--red); }
        #restart { background: #422006; border: 1px solid var(--amber); }
        #journal { background: #450a0a; border: 1px solid var(--red); }
        .banner b { font-weight: 650; }
        h2.section { margin: 1.2rem 2rem -.4rem; color: var(--muted); font-size: .9rem; font-weight: 500;
          text-transform: uppercase; letter-spacing: .06em; }
        [hidden] { display: none !important; }
        #today { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 1rem; margin: 1rem 2rem 1.2rem; }
        .count { background: var(--panel); border: 1px solid var(--line); border-radius: .7rem; padding: .8rem 1.1rem; }
        .count .n { font-size: 2.4rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .count .l { color: var(--muted); font-size: .95rem; text-transform: uppercase; letter-spacing: .06em; }
        .count .note { color: var(--muted); font-size: .8rem; }
        .count.approved .n { color: var(--green); } .count.declined .n { color: var(--red); }
        .count.unknown .n { color: var(--amber); } .count.aborted .n, .count.undeliverable .n { color: var(--blue); }
        table { width: calc(100% - 4rem); margin: 0 2rem 2rem; border-collapse: separate; border-spacing: 0 .5rem; }
        th { text-align: left; color: var(--muted); font-weight: 500; font-size: .9rem; text-transform: uppercase;
          letter-spacing: .06em; padding: 0 1rem; }
        td { background: var(--panel); padding: .9rem 1rem; font-size: 1.25rem; border-top: 1px solid var(--line);
          border-bottom: 1px solid var(--line); vertical-align: middle; }
        td:first-child { border-left: 1px solid var(--line); border-radius: .7rem 0 0 .7rem; font-weight: 650; font-size: 1.45rem; }
        td:last-child { border-right: 1px solid var(--line); border-radius: 0 .7rem .7rem 0; }
        tr[data-link="down"] td:first-child { box-shadow: inset .35rem 0 0 var(--red); }
        tr[data-link="up"] td:first-child { box-shadow: inset .35rem 0 0 var(--green); }
        .pill { display: inline-block; padding: .15rem .7rem; border-radius: 999px; font-size: 1rem; font-weight: 600; }
        .pill.up { background: #052e16; color: var(--green); } .pill.down { background: #450a0a; color: var(--red); }
        body.silent .pill.up { background: #1e293b; color: var(--muted); }
        body.silent tr[data-link] td:first-child { box-shadow: inset .35rem 0 0 var(--grey); }
        .platform { display: block; color: var(--muted); font-size: .85rem; font-weight: 400; }
        .muted { color: var(--muted); }
        .age { font-variant-numeric: tabular-nums; color: var(--amber); font-weight: 600; margin-left: .4rem; }
        .badge { display: inline-block; padding: .2rem .75rem; border-radius: .45rem; font-weight: 650; margin-right: .5rem; }
        .badge.success { background: #052e16; color: var(--green); } .badge.failure { background: #450a0a; color: var(--red); }
        .badge.unknown { background: #422006; color: var(--amber); }
        .badge.aborted, .badge.undeliverable, .badge.superseded, .badge.nothing_to_abort { background: #172554; color: var(--blue); }
        .small { font-size: .95rem; color: var(--muted); }
        footer { margin: 0 2rem 1.5rem; color: var(--muted); font-size: .9rem; }
        </style>
        </head>
        <body data-snapshots="0">
        <header>
          <h1>Lanes <span>· vivabridge</span></h1>
          <div id="live" class="off"><i></i><span id="livetext">connecting…</span></div>
          <div id="role"></div>
          <div id="clock">--:--:--</div>
        </header>
        <div id="silence" class="banner"></div>
        <div id="restart" class="banner"></div>
        <div id="journal" class="banner"></div>
        <h2 class="section" id="todayhead">Today</h2>
        <section id="today"></section>
        <table>
          <thead><tr><th>Lane</th><th>Link</th><th>In progress</th><th>Last result</th><th>Batch</th></tr></thead>
          <tbody id="lanes"></tbody>
        </table>
        <footer id="foot">Waiting for the bridge…</footer>
        <script>
        "use strict";
        // The words, from the bridge (LastResultLabel): a last result's badge by action then outcome (a batch, a
        // look-up or a reprint is "Batch done", never "Approved"); by outcome alone for an action not in the table.
        const BADGES = \#(LastResultLabel.badgesTable);
        const WORDS = \#(LastResultLabel.wordsTable);
        const ACTIONS = \#(LastResultLabel.namesTable);
        const badge = (r) => (BADGES[r.action] || {})[r.outcome] || WORDS[r.outcome] || r.outcome;
        // Today's cards: money outcomes per kind, from the snapshot's counts by action then outcome. A batch
        // opened, an abort that stopped a sale or a reprint moves no money and is on no card.
        const MONEY_KINDS = \#(LastResultLabel.moneyKindsTable);
        const PAYMENTS = MONEY_KINDS.payments, HOLDS = MONEY_KINDS.holds, REFUNDS = MONEY_KINDS.refunds;
        const CHARGES = PAYMENTS.concat(HOLDS), MONEY = CHARGES.concat(REFUNDS);
        const KINDS = [
          { kind: "approved", label: "Sales approved", note: "sales and captures", actions: PAYMENTS, outcome: "success" },
          { kind: "declined", label: "Payments declined", note: "sales, pre-auths and captures", actions: CHARGES, outcome: "failure" },
          { kind: "refunds", label: "Refunds", note: "refunds and cancelled sales", actions: REFUNDS, outcome: "success" },
          { kind: "aborted", label: "Payments aborted", note: "stopped at the terminal", actions: CHARGES, outcome: "aborted" },
          { kind: "unknown", label: "Unknown: check", note: "at the terminal or in Viva's back office", actions: MONEY, outcome: "unknown" },
          { kind: "undeliverable", label: "Not delivered", note: "the terminal was not connected", actions: MONEY, outcome: "undeliverable" },
        ];
        const counted = (k) => k.actions.reduce((n, a) => n + ((s.today[a] || {})[k.outcome] || 0), 0);
        // One more of `action`'s `outcome`, one less of its `earlier` one (a late result, a resolve), never below zero.
        function bump(action, outcome, earlier) {
          const c = s.today[action] = s.today[action] || {};
          c[outcome] = (c[outcome] || 0) + 1;
          if (earlier && c[earlier] > 0) c[earlier] -= 1;
        }
        const STATES = { accepted: "starting", forwarded: "sent to the terminal", delivered: "on the terminal" };
        const s = { epoch: null, seq: 0, order: [], lanes: {}, today: {}, hasToday: false, lastBeat: 0, beatMs: 2000, open: false,
          restart: null, journal: null, snapshots: 0, beats: 0 };
        // ?beats=N: stop following after N heartbeats (a preview for headless browsers, whose virtual clock
        // stands still while a stream is open); without it the page follows the bridge for ever.
        const stopAfterBeats = Number(new URLSearchParams(location.search).get("beats")) || 0;
        // ?beats=0: a still picture: stop once the first snapshot is drawn, without waiting for a heartbeat.
        const stillPicture = new URLSearchParams(location.search).get("beats") === "0";
        // ?topic=lane-1.&topic=lane-2.: follow only those lanes (as /events takes them); the day's counts,
        // which are the whole bridge's, are then not shown. Passed on as written: URLSearchParams would read
        // "+" as a space, /events reads it as "+". An empty one is every event, as on /events.
        const topics = location.search.slice(1).split("&").filter((p) => p.startsWith("topic=")).map((p) => p.slice(6));
        const following = topics.includes("") ? [] : topics;
        const shown = (t) => { try { return decodeURIComponent(t); } catch (e) { return t; } };
        const eventsUrl = "events" + (following.length ? "?" + following.map((t) => "topic=" + t).join("&") : "");
        let source = null;

        const el = (id) => document.getElementById(id);
        const esc = (t) => String(t).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
        const hhmm = (iso) => { const d = new Date(iso); return isNaN(d) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); };
        const euros = (cents) => typeof cents === "number" ? "€" + (cents / 100).toFixed(2) : "";
        function age(iso) {
          const ms = Date.now() - new Date(iso).getTime();
          if (!(ms >= 0)) return "";
          const t = Math.floor(ms / 1000), m = Math.floor(t / 60), sec = String(t % 60).padStart(2, "0");
          return m >= 60 ? Math.floor(m / 60) + "h" + String(m % 60).padStart(2, "0") : m + ":" + sec;
        }

        function handle(msg) {
          if (typeof msg.epoch === "number") {
            if (s.epoch !== null && msg.epoch !== s.epoch) s.restart = { from: s.epoch, to: msg.epoch, at: new Date() };
            s.epoch = msg.epoch;
          }
          if (msg.topic === "lanes") {
            s.snapshots += 1;
            s.seq = msg.seq || 0;
            s.snapshotSeq = s.seq;
            s.order = []; s.lanes = {};
            for (const l of msg.lanes || []) {
              s.order.push(l.lane);
              s.lanes[l.lane] = { up: !!l.connected, platform: l.platform, inFlight: l.inFlight && l.inFlight.action !== "abort" ? l.inFlight : null,
                last: l.lastResult || null, batch: l.openBatch };
            }
            s.today = JSON.parse(JSON.stringify(msg.today || {}));
            s.hasToday = msg.today !== undefined;
            s.lastBeat = Date.now();
            return render();
          }
          if (typeof msg.seq === "number") { if (msg.seq <= s.seq) return; s.seq = msg.seq; }
          const [lane, subject, event] = String(msg.topic).split(".");
          if (lane === "bridge") {
            if (subject === "heartbeat") {
              const now = Date.now();
              if (s.lastBeat) s.beatMs = Math.max(1000, Math.min(60000, now - s.lastBeat));
              s.lastBeat = now;
              s.beats += 1;
              if (stopAfterBeats && s.beats >= stopAfterBeats && source) { source.close(); source = null; document.body.dataset.stopped = "1"; }
            } else if (subject === "journal") {
              s.journal = event === "unavailable" ? (msg.reason || "the journal cannot take commands") : null;
            }
            return render();
          }
          const l = s.lanes[lane];
          if (!l) return;
          if (subject === "lane") {
            if (event === "connected") l.up = true;
            if (event === "disconnected") l.up = false;
          } else if (subject === "batch" && (event === "opened" || event === "closed")) {
            // The lane's batch; a batch command's own events (batch.accepted, batch.result) are a command's.
            l.batch = event === "opened" ? { name: msg.batchName, id: msg.batchId, openedAt: msg.time, automatic: !!msg.automatic } : null;
          } else if (event === "accepted" && subject !== "abort") {
            l.inFlight = { action: subject, id: msg.id, state: "accepted", since: msg.time };
          } else if ((event === "forwarded" || event === "delivered") && l.inFlight && l.inFlight.id === msg.id) {
            l.inFlight.state = event;
          } else if (event === "result" || event === "unknown" || event === "late_result") {
            const amount = msg.result && typeof msg.result.amount === "number" ? msg.result.amount : undefined;
            l.last = { id: msg.id, action: subject, outcome: msg.outcome, amount: amount, at: msg.time, seq: msg.seq };
            if (l.inFlight && l.inFlight.id === msg.id) l.inFlight = null;
            if (msg.outcome) bump(subject, msg.outcome, event === "late_result" && msg.earlier ? msg.earlier.outcome : null);
          } else if (event === "resolved" && msg.outcome) {
            // An unknown command closed by hand moves to its outcome, as the bridge counts it.
            bump(subject, msg.outcome, msg.earlier ? msg.earlier.outcome : null);
          }
          render();
        }

        function render() {
          document.body.dataset.snapshots = String(s.snapshots);
          document.body.dataset.snapshotSeq = String(s.snapshotSeq || "");
          const rows = s.order.map((id) => {
            const l = s.lanes[id];
            const link = `<span class="pill ${l.up ? "up" : "down"}">● ${l.up ? "connected" : "down"}</span>`;
            const f = l.inFlight;
            const flight = f ? `${esc(ACTIONS[f.action] || f.action)} <span class="small">${esc(f.id)}</span><br><span class="small">${esc(STATES[f.state] || f.state)}</span>`
              + (f.since ? `<span class="age" data-since="${esc(f.since)}">${age(f.since)}</span>` : "") : `<span class="muted">idle</span>`;
            const r = l.last;
            const last = r ? `<span class="badge ${esc(r.outcome)}">${esc(badge(r))}</span>${euros(r.amount)}`
              + `<br><span class="small">${esc(ACTIONS[r.action] || r.action)} ${esc(r.id)} · ${hhmm(r.at)}</span>` : `<span class="muted">none yet</span>`;
            const b = l.batch;
            const batch = b ? `${esc(b.name || (b.automatic ? "automatic" : "open"))}<br><span class="small">since ${hhmm(b.openedAt)}</span>` : `<span class="muted">no batch open</span>`;
            return `<tr data-lane="${esc(id)}" data-link="${l.up ? "up" : "down"}" data-outcome="${r ? esc(r.outcome) : ""}" data-result-seq="${r && r.seq ? r.seq : ""}">`
              + `<td>${esc(id)}<span class="platform">${esc(l.platform || "")}</span></td><td>${link}</td><td>${flight}</td><td>${last}</td><td>${batch}</td></tr>`;
          });
          el("lanes").innerHTML = rows.join("");
          el("today").hidden = el("todayhead").hidden = following.length > 0 || (s.epoch !== null && !s.hasToday);
          el("today").innerHTML = KINDS.map((k) => `<div class="count ${k.kind}" data-kind="${k.kind}"><div class="n">${counted(k)}</div><div class="l">${k.label}</div><div class="note">${k.note}</div></div>`).join("");
          const up = s.order.filter((id) => s.lanes[id].up).length;
          el("foot").textContent = s.epoch === null ? "Waiting for the bridge…" : `${up} of ${s.order.length} lanes connected${following.length ? " (following " + following.map(shown).join(", ") + ")" : ""} · bridge start #${s.epoch} · event ${s.seq}`;
          tick();
        }

        function tick() {
          el("clock").textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
          for (const a of document.querySelectorAll(".age[data-since]")) a.textContent = age(a.dataset.since);
          const silentFor = s.lastBeat ? Date.now() - s.lastBeat : 0;
          const silent = document.body.dataset.stopped ? false : !s.open || silentFor > 2 * s.beatMs + 500;
          const live = el("live");
          live.className = silent ? "off" : "on";
          el("livetext").textContent = silent ? "no contact" : "live";
          document.body.classList.toggle("silent", silent && s.epoch !== null);
          const role = el("role");
          role.textContent = s.instance ? `${s.instance} · ${s.role}` : "";
          role.dataset.role = s.role || "";
          const silence = el("silence");
          if (s.role === "standby") {
            silence.innerHTML = `<b>This bridge (${esc(s.instance)}) is standby.</b> The active bridge takes the payments; this one takes over if it goes.`;
            silence.classList.add("show");
          } else if (silent && s.epoch !== null) {
            silence.innerHTML = `<b>No word from the bridge for ${Math.round(silentFor / 1000)} s.</b> It may have stopped: payments cannot be taken until it is back. The page reconnects by itself.`;
            silence.classList.add("show");
          } else silence.classList.remove("show");
          const restart = el("restart");
          if (s.restart && Date.now() - s.restart.at.getTime() < 15 * 60 * 1000) {
            restart.innerHTML = `<b>The bridge restarted at ${s.restart.at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}</b> (start #${s.restart.from} → #${s.restart.to}). A payment that was in progress then may show as Unknown: check it at the terminal.`;
            restart.classList.add("show");
          } else restart.classList.remove("show");
          const journal = el("journal");
          if (s.journal) { journal.innerHTML = `<b>The bridge cannot take payments:</b> ${esc(s.journal)}`; journal.classList.add("show"); }
          else journal.classList.remove("show");
        }

        function connect() {
          source = new EventSource(eventsUrl);
          source.onopen = () => { s.open = true; tick(); };
          source.onmessage = (e) => { try { handle(JSON.parse(e.data)); } catch (err) { console.error(err); } };
          if (stillPicture) source.addEventListener("message", () => {
            if (s.snapshots > 0 && source) { source.close(); source = null; document.body.dataset.stopped = "1"; }
          });
          // A refused reconnection (503 while the bridge stops) ends an EventSource for good: start anew.
          source.onerror = () => {
            s.open = false;
            if (source && source.readyState === EventSource.CLOSED) {
              source = null;
              // A refused query (400: a bad topic) is not a bridge that stopped: say why, and stop asking.
              fetch(eventsUrl).then((r) => r.status === 400 ? r.json() : (r.body && r.body.cancel(), null))
                .then((refused) => {
                  if (refused) { el("foot").textContent = "This page's address was refused: " + refused.error; document.body.dataset.stopped = "refused"; }
                  else setTimeout(connect, 3000);
                }, () => setTimeout(connect, 3000));
            }
            tick();
          };
        }
        // Which bridge this is, and whether it serves: /readyz answers 503 on a standby, with the same body.
        function askRole() {
          fetch("readyz").then((r) => r.json()).then((b) => { s.role = b.role; s.instance = b.instance; tick(); }, () => {});
        }
        render();
        setInterval(tick, 1000);
        askRole();
        if (!stillPicture) setInterval(askRole, 2000);
        connect();
        </script>
        </body>
        </html>
        """#
}
