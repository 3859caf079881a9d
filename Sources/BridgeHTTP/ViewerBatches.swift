import Bridge
import NIOCore

/// One gathering window's events as `/events` viewers get them: every event for the viewers without a
/// filter, and for each distinct `topic` filter of the others, the events it shows. Each event is written
/// as a server-sent event once, into every batch that takes it.
struct ViewerBatches {
    /// Whether some viewer takes every event.
    private let unfiltered: Bool
    private var all: [UInt8] = []
    /// Each distinct filter and its events, in the order they came.
    private var filtered: [(filter: TopicPrefixes, bytes: [UInt8])]

    /// Batches for viewers with these filters (nil: no filter), repeated or not.
    init(filters: some Sequence<TopicPrefixes?>) {
        var unfiltered = false
        var distinct: Set<TopicPrefixes> = []
        for filter in filters {
            if let filter { distinct.insert(filter) } else { unfiltered = true }
        }
        self.unfiltered = unfiltered
        filtered = distinct.map { ($0, []) }
    }

    /// Adds one event to every batch that takes its topic.
    mutating func add(topic: ArraySlice<UInt8>, body: ArraySlice<UInt8>) {
        if filtered.isEmpty {
            if unfiltered { EventHub.append(topic: topic, body: body, to: &all) }
            return
        }
        var event: [UInt8] = []
        EventHub.append(topic: topic, body: body, to: &event)
        if unfiltered { all.append(contentsOf: event) }
        for index in filtered.indices where EventTap.shows(topic, to: filtered[index].filter) {
            filtered[index].bytes.append(contentsOf: event)
        }
    }

    /// What to write to each kind of viewer (by its filter; nil: no filter), only those with events; nil
    /// when no batch has any.
    func buffers() -> [TopicPrefixes?: ByteBuffer]? {
        var buffers: [TopicPrefixes?: ByteBuffer] = [:]
        if !all.isEmpty { buffers[nil] = ByteBuffer(bytes: all) }
        for (filter, bytes) in filtered where !bytes.isEmpty { buffers[filter] = ByteBuffer(bytes: bytes) }
        return buffers.isEmpty ? nil : buffers
    }
}
