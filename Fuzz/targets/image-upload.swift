// libFuzzer entry for the image-upload target; compiled into the module it tests by scripts/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let problem = MediaFuzzChecks.upload(bytes) { fatalError(problem) }
    return 0
}
