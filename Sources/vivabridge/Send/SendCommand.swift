import ArgumentParser
import Bridge
import BridgeClient
import Foundation
import InterApp

/// `vivabridge send`: one command to the bridge, its reply in words, and an exit status by outcome.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one command to the bridge and show its reply.",
        discussion: """
            Examples:
              vivabridge send sale --lane lane-1 --amount 12.00
              vivabridge send sale --lane lane-3 --amount 1251    (declined: see below)
              vivabridge send abort --lane lane-1
              vivabridge send batch --lane lane-2 --command open --batch-name morning
              vivabridge send cancel --lane lane-1 --reference-number 833121
              vivabridge send reprint --lane lane-1 --order-code 1091159196000136
              vivabridge send foreground --lane lane-1
              vivabridge send pre_auth --lane lane-1 --amount 80.00
              vivabridge send capture_pre_auth --lane lane-1 --order-code 1091159196000136 --amount 62.40
              vivabridge send unreferenced_refund --lane lane-1 --amount 5.00
              vivabridge send cancel --lane lane-4 --parent-id cli-1717171717171-3fa2 --amount 5.00    (cloud lane)
              vivabridge send fast_refund --lane lane-3 --amount 5.00 --reference-number 833121
              vivabridge send report --lane lane-1 [--batch-name morning]
              vivabridge send status --ref cli-1717171717171-3fa2
              vivabridge send resolve --ref cli-1717171717171-3fa2 --outcome success \\
                  --note "approved in Viva's back office"    (an unknown command, closed by hand)
              vivabridge send lanes
              vivabridge send sale --lane lane-1 --amount 12.00 \\
                  --command-endpoint tcp://10.0.0.1:5555 --command-endpoint tcp://10.0.0.2:5555
                  (two bridges on one journal: the one that answers; the same id to each)
              vivabridge send sale --lane lane-1 --amount 20.00 \\
                  --param withInstallments=true --param preferredInstallments=3

            Amounts: with a dot they are euros (12.00, 12.5), an integer is cents (1200).
            So 12 is 12 cents. The simulated lanes decline amounts ending in 51.

            Exit status, by the reply's outcome:
              0   success, nothing_to_abort; every answered query (status, lanes, ping);
                  a resolve the bridge took (whichever outcome it gave the command)
              1   failure, aborted, superseded
              2   rejected: the bridge refused the command (see its error code); a resolve
                  of a command that is not unknown (not_unknown), or without the admin role
                  when the bridge has security (not_allowed)
              3   undeliverable: the terminal is not connected; retry under a new id
              4   unknown: the deadline passed with no callback; the payment may have
                  happened: ask `send status --ref ID` later
              5   no reply within --wait-ms (is the bridge running?)
              64  usage error: a bad option or amount; nothing was sent
            """
    )

    @Argument(help: "What to send: a terminal action or a query of the bridge.")
    var action: SendAction

    @Option(help: "The lane (terminal actions).")
    var lane: String?

    @OptionGroup var endpoints: ClientEndpointOptions

    @Option(name: .customLong("endpoint"), help: .hidden)
    var legacyEndpoint: String?

    @Option(help: "The command's id, its idempotency key (default: cli-<milliseconds>-<random>).")
    var id: String?

    // `.unconditional`: `--amount -5.00` reaches the amount's own rule (amounts are positive) instead of
    // being read as an option and leaving --amount without a value.
    @Option(parsing: .unconditional, help: ArgumentHelp(SendAmount.help), transform: SendAmount.cents)
    var amount: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The tip (tipAmount), written like --amount.", valueName: "amount"),
        transform: SendAmount.cents)
    var tip: Int?

    @Option(help: "The sale's clientTransactionId (default: the command's id), or the one to look up.")
    var clientTransactionId: String?

    @Option(
        help:
            "cancel, capture_pre_auth, fast_refund: the referenceNumber (STAN) of the transaction to cancel, capture or refund."
    )
    var referenceNumber: String?

    @Option(
        help: """
            reprint: the orderCode (16 digits) of the transaction to print again (default: the last one); \
            capture_pre_auth: the authorisation's orderCode.
            """)
    var orderCode: String?

    @Option(
        help:
            "cancel, capture_pre_auth on a cloud lane: the id of the bridge's own sale or pre_auth to refund or capture."
    )
    var parentId: String?

    @Option(name: .customLong("command"), help: "batch: open or close.")
    var batchCommand: String?

    @Option(help: "batch, report: the batch's name.")
    var batchName: String?

    @Option(help: "batch close, report: the batch's id (a UUID).")
    var batchId: String?

    @Option(help: "status: the id of the command to look up; resolve: the id of the unknown command to close.")
    var ref: String?

    @Option(
        name: .customLong("outcome"),
        help: ArgumentHelp(
            "resolve: how the unknown command ended, as the terminal or Viva's back office shows it.",
            valueName: "success|failure"))
    var resolvedOutcome: String?

    @Option(help: "resolve: how the outcome was found out (1 to 1000 bytes), journaled with it.")
    var note: String?

    @Option(help: "This command's deadline in milliseconds (1000 to 600000), instead of the bridge's.")
    var timeoutMs: Int?

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp(
            "Any other Viva parameter, as key=value (repeatable). Integers and true/false are sent typed.",
            valueName: "key=value"))
    var params: [String] = []

    @Option(help: "How long to wait for the reply, in milliseconds (default: the command's deadline + 5 s).")
    var waitMs: Int?

    @Flag(help: "Print the reply's raw JSON instead of the readable account.")
    var json = false

    func validate() throws {
        _ = try request(id: "validation")
        if let waitMs, waitMs < 1 { throw ValidationError("--wait-ms must be at least 1") }
    }

    func run() throws {
        let id = id ?? Self.generatedId()
        let frame = JSONValue.object(try request(id: id)).serialized()
        let wait = waitMs ?? defaultWaitMs
        let bridges = try endpoints.commands(legacy: legacyEndpoint)
        let failover = FailoverRequest(
            endpoints: bridges, curve: try endpoints.curve(),
            attemptMs: bridges.count > 1 ? min(wait, Self.failoverAttemptMs) : wait,
            maxAttempts: bridges.count > 1 ? Int.max : 1, totalMs: wait)
        guard let answer = try failover.send(frame, id: id) else {
            WatchTerminal.writeError(
                "vivabridge: no reply to \(action.rawValue) \(id) from \(bridges.joined(separator: " or ")) "
                    + "within \(wait) ms "
                    + "(is the bridge running? `vivabridge run` starts one). The command may still have reached it: "
                    + "before sending it again, ask `vivabridge send status --ref \(id)`, and repeat it under the same id "
                    + "(a repeat never charges twice)\n")
            throw ExitCode(SendReport.noReplyExitCode)
        }
        let reply = answer.reply
        if bridges.count > 1 {
            // On standard error with --json, so that standard output stays the reply alone.
            let line = "answered by \(answer.endpoint) (attempt \(answer.attempts))\n"
            if json { WatchTerminal.writeError(line) } else { WatchTerminal.write(line) }
        }
        if json {
            WatchTerminal.write(String(decoding: reply.bytes, as: UTF8.self) + "\n")
        } else {
            WatchTerminal.write(
                action == .resolve
                    ? SendReport.renderResolve(reply.object)
                    : SendReport.render(reply.object, width: WatchTerminal.width))
        }
        let code = SendReport.exitCode(outcome: (try? reply.typed())?.outcome.rawValue)
        if code != 0 { throw ExitCode(code) }
    }

    /// With several `--command-endpoint`s, how long one bridge has to answer before the command goes, under
    /// the same id, to the next (a refused or dropped connection moves on at once).
    static let failoverAttemptMs = 10_000

    /// A fresh id: `cli-<unix milliseconds>-<4 hex digits>`.
    static func generatedId() -> String {
        let ms = Int64(Date().timeIntervalSince1970 * 1000)
        return "cli-\(ms)-\(String(format: "%04x", UInt16.random(in: 0...UInt16.max)))"
    }

    /// How long to wait by default: the command's deadline (its own, or the contract's default for the
    /// action) plus 5 s; 5 s for queries.
    var defaultWaitMs: Int {
        guard let terminal = action.terminalAction else { return 5000 }
        let fromParam = params.compactMap(Self.split).first { $0.key == "timeoutMs" }.flatMap { Int($0.value) }
        let own = timeoutMs ?? fromParam
        return (own ?? TerminalSettings.defaultTimeouts[terminal] ?? 120_000) + 5000
    }
}

/// What `send` can ask: the terminal actions, the three bridge queries, and `resolve` (an `unknown`
/// command closed by hand; the `admin` role when the bridge has security).
enum SendAction: String, CaseIterable, ExpressibleByArgument {
    case sale, cancel, abort, batch, transactionDetails, reprint, foreground
    case preAuth = "pre_auth"
    case capturePreAuth = "capture_pre_auth"
    case unreferencedRefund = "unreferenced_refund"
    case fastRefund = "fast_refund"
    case report
    case status, lanes, ping, resolve

    /// The terminal action, or nil for a query.
    var terminalAction: TerminalAction? { TerminalAction(rawValue: rawValue) }
}

// MARK: - The command's JSON

extension SendCommand {
    /// The command object for `id`, built key by key (never by pasting text), in the contract's key order.
    ///
    /// - Throws: a `ValidationError` for an option that does not fit the action, or a missing one.
    func request(id: String) throws -> JSONObject {
        var command = JSONObject()
        command["id"] = .string(id)
        let spec = action.terminalAction?.spec
        if spec != nil {
            guard let lane else { throw ValidationError("\(action.rawValue) needs --lane") }
            command["lane"] = .string(lane)
        } else if lane != nil {
            throw ValidationError("--lane does not apply to \(action.rawValue): it is a query of the bridge")
        }
        command["action"] = .string(action.rawValue)

        let named: [(option: String, key: String, value: JSONValue?)] = [
            ("--amount", "amount", amount.map { .number(JSONNumber($0)) }),
            ("--tip", "tipAmount", tip.map { .number(JSONNumber($0)) }),
            ("--client-transaction-id", "clientTransactionId", clientTransactionId.map(JSONValue.string)),
            ("--reference-number", "referenceNumber", referenceNumber.map(JSONValue.string)),
            ("--order-code", "orderCode", orderCode.map(JSONValue.string)),
            ("--parent-id", "parentId", parentId.map(JSONValue.string)),
            ("--command", "command", batchCommand.map(JSONValue.string)),
            ("--batch-name", "batchName", batchName.map(JSONValue.string)),
            ("--batch-id", "batchId", batchId.map(JSONValue.string)),
        ]
        for (option, key, value) in named {
            guard let value else { continue }
            guard spec?.parameter(named: key) != nil else {
                throw ValidationError("\(option) (\(key)) is not a parameter of \(action.rawValue)")
            }
            command[key] = value
        }
        if action == .status || action == .resolve {
            guard let ref else {
                throw ValidationError(
                    action == .status
                        ? "status needs --ref, the id of the command to look up"
                        : "resolve needs --ref, the id of the unknown command to close")
            }
            command["ref"] = .string(ref)
        } else if ref != nil {
            throw ValidationError("--ref applies only to status and resolve")
        }
        try addResolution(to: &command)
        if let timeoutMs {
            guard spec != nil else { throw ValidationError("--timeout-ms applies only to terminal actions") }
            command["timeoutMs"] = .number(JSONNumber(timeoutMs))
        }
        for param in params {
            guard let (key, text) = Self.split(param) else {
                throw ValidationError("--param \(param): write it as key=value, such as show_receipt=false")
            }
            guard !["id", "lane", "action"].contains(key) else {
                throw ValidationError("--param \(key)=…: use --\(key == "action" ? "the ACTION argument" : key)")
            }
            guard command[key] == nil else { throw ValidationError("\(key) is given twice") }
            command[key] = try Self.typed(text, kind: spec?.parameter(named: key)?.kind, key: key)
        }
        if let spec {
            for parameter in spec.parameters where parameter.isRequired && command[parameter.name] == nil {
                throw ValidationError("\(action.rawValue) needs \(Self.option(for: parameter.name))")
            }
        }
        return command
    }

    /// `resolve`'s `outcome` and `note`, checked as the bridge checks them; `--outcome` and `--note` are
    /// refused on any other action.
    func addResolution(to command: inout JSONObject) throws {
        guard action == .resolve else {
            if resolvedOutcome != nil || note != nil {
                throw ValidationError("--outcome and --note apply only to resolve")
            }
            return
        }
        guard let resolvedOutcome else {
            throw ValidationError(
                "resolve needs --outcome success|failure: how the command ended, as the terminal or Viva's back "
                    + "office shows it")
        }
        guard ["success", "failure"].contains(resolvedOutcome) else {
            throw ValidationError("--outcome \(resolvedOutcome): give success or failure")
        }
        command["outcome"] = .string(resolvedOutcome)
        if let note {
            guard (1...1000).contains(note.utf8.count) else {
                throw ValidationError("--note is 1 to 1000 bytes (it has \(note.utf8.count))")
            }
            command["note"] = .string(note)
        }
    }

    /// `key=value` split at its first `=`; nil without one or with an empty key.
    static func split(_ param: String) -> (key: String, value: String)? {
        guard let equals = param.firstIndex(of: "="), equals != param.startIndex else { return nil }
        return (String(param[..<equals]), String(param[param.index(after: equals)...]))
    }

    /// A `--param` value typed as the action table says (integers and flags), or by its look when the table
    /// does not know the key: `true`/`false` are booleans, plain integers are integers, the rest strings.
    static func typed(_ text: String, kind: ParameterSpec.Kind?, key: String) throws -> JSONValue {
        switch kind {
        case .integer?:
            guard let number = JSONNumber(literal: text), number.intValue != nil else {
                throw ValidationError("--param \(key)=\(text): \(key) is an integer")
            }
            return .number(number)
        case .flag?:
            guard let flag = Bool(text) else {
                throw ValidationError("--param \(key)=\(text): \(key) is true or false")
            }
            return .bool(flag)
        case .some:
            return .string(text)
        case nil:
            if let flag = Bool(text) { return .bool(flag) }
            if let number = JSONNumber(literal: text), number.intValue != nil { return .number(number) }
            return .string(text)
        }
    }

    /// The option that sets `key`, for messages.
    static func option(for key: String) -> String {
        switch key {
        case "amount": "--amount"
        case "command": "--command open|close"
        case "clientTransactionId": "--client-transaction-id"
        default: "--param \(key)=…"
        }
    }
}
