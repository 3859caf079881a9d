/// Batches: open (replacing the open one), close by id, by name or the active one, 48-hour expiry.
///
/// Answers `action=batch&command=open|close&batchName=…&batchId=<UUID>&status=success&message=Batch opened`
/// (or `Batch closed`). A batch open for 48 hours on the simulator's clock is closed (`expired`) before any
/// batch request is handled; the real iOS app then starts a new, automatically named batch, which the
/// simulator does not, so that its state matches what the bridge can know (PROTOCOL.md §6).
extension TerminalApp {
    func batch(_ request: RequestURL, callback: String) {
        let now = clock.now()
        let before = batches
        batches.expire(at: now)
        defer { if batches != before { effects.append(.batches(batches)) } }

        let command = request.value("command") ?? ""
        let name = request.value("batchName").flatMap { $0.isEmpty ? nil : $0 }
        let id = request.value("batchId").flatMap { $0.isEmpty ? nil : $0 }
        switch command {
        case "open":
            let batchName = name ?? "Batch-" + dates.compactString(from: now)
            let batchId = random.uuid(uppercase: platform == .ios)
            batches.open(name: batchName, id: batchId, at: now)
            batchAnswer(callback: callback, command: command, name: batchName, id: batchId, message: .batchOpened)
        case "close":
            guard let open = batches.open else {
                batchFailed(callback: callback, command: command, name: name, id: id, message: .noOpenBatch)
                return
            }
            if let id, id.lowercased() != open.id.lowercased() {
                batchFailed(callback: callback, command: command, name: name, id: id, message: .batchNotFound)
                return
            }
            if let name, name != open.name {
                batchFailed(callback: callback, command: command, name: name, id: id, message: .batchNotFound)
                return
            }
            batches.close(reason: .command, at: now)
            batchAnswer(callback: callback, command: command, name: open.name, id: open.id, message: .batchClosed)
        default:
            batchFailed(
                callback: callback, command: command, name: name, id: id,
                message: .invalid("command must be open or close."))
        }
    }

    private func batchAnswer(callback: String, command: String, name: String, id: String, message: Dialect.Message) {
        var url = builder(callback)
        url.add("action", "batch")
        url.add("command", command)
        url.add("batchName", name)
        url.add("batchId", id)
        url.add("status", "success")
        url.add("message", dialect.text(message))
        emit(url.url)
    }

    private func batchFailed(
        callback: String, command: String, name: String?, id: String?, message: Dialect.Message
    ) {
        var url = builder(callback)
        url.add("action", "batch")
        url.add("command", command)
        url.add("batchName", ifPresent: name)
        url.add("batchId", ifPresent: id)
        url.add("status", dialect.failed)
        url.add("message", dialect.text(message))
        emit(url.url)
    }
}
