/// Reports (v1.1, iOS only: `action=getReport&command=summary[&batchName=…|&batchId=…]`), as Viva's iOS "Get
/// Reports" page describes the choice of batch: the one `batchId` names, else the one `batchName` names, else
/// (a name or id that matches none included) the active batch; none active is "Batch not found.".
///
/// Answers `action=getReport&command=summary&batchName=…&batchId=…&status=success&message=Report retrieved`
/// and the batch's totals (``BatchTally``). No card, no host: it answers at once.
extension TerminalApp {
    func report(_ request: RequestURL, callback: String) {
        let before = batches
        batches.expire(at: clock.now())
        if batches != before { effects.append(.batches(batches)) }
        let kept = Set(batches.all.map { $0.id.lowercased() })
        tallies = tallies.filter { kept.contains($0.key) }

        let command = request.value("command") ?? ""
        var url = builder(callback)
        url.add("action", "getReport")
        url.add("command", command)
        guard command == "summary" else {
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.invalid("command must be summary.")))
            emit(url.url)
            return
        }
        let id = request.value("batchId").flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let name = request.value("batchName").flatMap { $0.isEmpty ? nil : $0 }
        let batch =
            batches.all.last { id != nil && $0.id.lowercased() == id } ?? batches.all.last { $0.name == name }
            ?? batches.open
        guard let batch else {
            url.add("status", dialect.failed)
            url.add("message", dialect.text(.batchNotFound))
            emit(url.url)
            return
        }
        url.add("batchName", batch.name)
        url.add("batchId", batch.id)
        url.add("status", "success")
        url.add("message", dialect.text(.reportReady))
        for (field, value) in (tallies[batch.id.lowercased()] ?? BatchTally()).fields { url.add(field, value) }
        emit(url.url)
    }
}
