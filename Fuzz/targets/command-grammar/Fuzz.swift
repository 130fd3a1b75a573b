import CommandGrammarChecks
import FuzzDriver

// The command-grammar fuzz target: the bot's command grammar and the !search query builder.
// scripts/fuzz builds it with libFuzzer (-sanitize=fuzzer,address -DFUZZING); a plain
// `swift build` makes a replayer of saved inputs.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOne(data, size, GrammarFuzzChecks.commandLine)
}

#if FUZZING
    // SwiftPM links an executable's `main` to `fuzz_command_grammar_main`; here that runs libFuzzer's driver,
    // so libFuzzer's own `main` is never linked in.
    @_cdecl("fuzz_command_grammar_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        FuzzDriver.run(argc, argv, fuzzOne)
    }
#else
    @main enum Replay {
        static func main() throws { try FuzzDriver.replay(GrammarFuzzChecks.commandLine) }
    }
#endif
