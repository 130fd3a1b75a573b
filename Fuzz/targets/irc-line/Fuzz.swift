import FuzzDriver
import IRCLineChecks

// The irc-line fuzz target: the IRC parser and serializer. scripts/fuzz builds it with libFuzzer
// (-sanitize=fuzzer,address -DFUZZING); a plain `swift build` makes a replayer of saved inputs.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOne(data, size, ProtocolFuzzChecks.ircLine)
}

#if FUZZING
    // SwiftPM links an executable's `main` to `fuzz_irc_line_main`; here that runs libFuzzer's driver,
    // so libFuzzer's own `main` is never linked in.
    @_cdecl("fuzz_irc_line_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        FuzzDriver.run(argc, argv, fuzzOne)
    }
#else
    @main enum Replay {
        static func main() throws { try FuzzDriver.replay(ProtocolFuzzChecks.ircLine) }
    }
#endif
