import CommandGrammarChecks
import Foundation
import HearthApps
import Testing

/// Replays the command-grammar fuzzer's saved corpus and every crash it ever found (Fuzz/, see scripts/fuzz).
@Suite struct FuzzCorpusTests {
    static let inputs: [String] = ["corpus", "crashes"].flatMap { kind -> [String] in
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Fuzz/\(kind)/command-grammar"
        ).standardized
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".") }
            .map { dir.appendingPathComponent($0).path }
    }

    @Test func everySavedInputHolds() throws {
        #expect(Self.inputs.count >= 5)
        for path in Self.inputs {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(GrammarFuzzChecks.commandLine(bytes) == nil, "\(path)")
        }
    }
}
