/// Edit distance for "did you mean …?" (optimal string alignment).
public enum Suggest {
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The closest candidates: a prefix match or within an edit distance of 2
    /// (1 for very short words), best first.
    public static func closest(to word: String, in candidates: [String], limit: Int = 3) -> [String] {
        let word = word.lowercased()
        let allowed = word.count <= 3 ? 1 : 2
        let scored = candidates.compactMap { c -> (String, Int)? in
            if c.hasPrefix(word) && word.count >= 2 { return (c, 0) }
            let d = distance(word, c)
            return d <= allowed ? (c, d) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }
}
