/// Keeps a rarely-set optional value out of the object that holds it: nil costs one pointer
/// instead of the value's whole size, in each of the tens of thousands of idle `Client`s that
/// never start a SCRAM exchange or a multiline batch. Setting it allocates a box.
@propertyWrapper
struct OutOfLine<Value> {
    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
    private var box: Box?

    init() { box = nil }
    init(wrappedValue: Value?) { box = wrappedValue.map(Box.init) }

    var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }
}
