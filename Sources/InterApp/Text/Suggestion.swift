/// "Did you mean …?" for misspelt keys and actions (`tipAmmount` → `tipAmount`).
public enum Suggestion {
    /// The candidate equal to `word` ignoring case, else the one within a small edit distance, else `nil`.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        if let match = candidates.first(where: { ASCII.equalsIgnoringCase($0, word) }) { return match }
        let letters = Array(word.lowercased().unicodeScalars)
        guard letters.count >= 3 && letters.count <= 64 else { return nil }
        let allowance = letters.count <= 5 ? 1 : 2
        var best: (candidate: String, distance: Int)? = nil
        for candidate in candidates {
            let distance = editDistance(letters, Array(candidate.lowercased().unicodeScalars))
            if distance <= allowance && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The Levenshtein distance between two short sequences.
    public static func editDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for (row, left) in lhs.enumerated() {
            current[0] = row + 1
            for (column, right) in rhs.enumerated() {
                let substitution = previous[column] + (left == right ? 0 : 1)
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
