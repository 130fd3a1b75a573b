/// A list that keeps its first element inline: most outboxes hold one message and most
/// of them one delivery, so the usual case makes no array (an allocation per message).
struct InlineList<Element> {
    private var first: Element?
    private var rest: [Element] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }

    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest { try body(element) }
    }
}
