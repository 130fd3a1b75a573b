import Foundation

/// What the three fuzz targets share: running one input through a check, libFuzzer's driver
/// (built with `-DFUZZING`), and replaying saved inputs (a plain build).
public enum FuzzDriver {
    /// One input: a check that finds a problem stops the fuzzer with it.
    public static func testOne(_ data: UnsafePointer<UInt8>?, _ size: Int, _ check: ([UInt8]) -> String?) -> CInt {
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        if let problem = check(bytes) { fatalError(problem) }
        return 0
    }

    #if FUZZING
        @_silgen_name("LLVMFuzzerRunDriver")
        static func runDriver(
            _ argc: UnsafeMutablePointer<CInt>,
            _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
            _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
        ) -> CInt

        /// libFuzzer's driver, run from the executable's entry point.
        public static func run(
            _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
            _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
        ) -> CInt {
            var argc = argc
            var argv = argv
            return runDriver(&argc, &argv, callback)
        }
    #endif

    /// Without libFuzzer: runs the check on each file named on the command line.
    public static func replay(_ check: ([UInt8]) -> String?) throws {
        for path in CommandLine.arguments.dropFirst() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if let problem = check(bytes) { fatalError("\(path): \(problem)") }
        }
    }
}
