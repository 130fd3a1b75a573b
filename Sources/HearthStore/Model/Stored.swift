/// A value as the store keeps it, with the id the database gave it. A value that is not stored yet
/// (a meme being made, say) has no id at all, so nothing ever has to unwrap one.
@dynamicMemberLookup
public struct Stored<Value: Sendable>: Sendable {
    public let id: Int64
    public var value: Value

    public init(id: Int64, _ value: Value) { (self.id, self.value) = (id, value) }

    public subscript<Field>(dynamicMember field: WritableKeyPath<Value, Field>) -> Field {
        get { value[keyPath: field] }
        set { value[keyPath: field] = newValue }
    }

    public subscript<Field>(dynamicMember field: KeyPath<Value, Field>) -> Field { value[keyPath: field] }
}

extension Stored: Equatable where Value: Equatable {}
