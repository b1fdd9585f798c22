extension Array where Element: Identifiable, Element.ID == Int64 {
    /// The records in the order of `ids` (repeated ids repeat them); ids without one are left out.
    func ordered(as ids: [Int64]) -> [Element] {
        let byId = Dictionary(map { ($0.id, $0) }) { first, _ in first }
        return ids.compactMap { byId[$0] }
    }
}
