/// Every lane's link the loop owns: in the order the lanes were opened (ticks walk them in it), and by
/// lane (a send finds its link at once).
struct LaneLinks: Sequence {
    private var ordered: [LaneLink] = []
    private var byLane: [String: LaneLink] = [:]

    /// How many links there are.
    var count: Int { ordered.count }

    /// The link of `lane`, if it has one.
    subscript(lane: String) -> LaneLink? { byLane[lane] }

    /// Counts `link` among the links, after the others.
    mutating func add(_ link: LaneLink) {
        ordered.append(link)
        byLane[link.lane] = link
    }

    /// Takes the link of `lane` out of the links.
    mutating func remove(lane: String) {
        guard let link = byLane.removeValue(forKey: lane) else { return }
        ordered.removeAll { $0 === link }
    }

    func makeIterator() -> IndexingIterator<[LaneLink]> { ordered.makeIterator() }
}
