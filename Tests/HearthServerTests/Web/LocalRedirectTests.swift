import Testing

@testable import HearthServer

/// The rule for where signing in sends a browser back to: only a path of this site.
@Suite struct LocalRedirectTests {
    @Test func pathsOfThisSitePass() {
        for path in [
            "/", "/u/alice", "/m/42", "/r/7", "/recipes/search?q=soup&page=2", "/fortunes", "/family/3",
            "/u/a%C3%A9", "/u/a_b-c.d~e", "/x;y=1,z(2)*'!$+:",
        ] {
            #expect(LocalRedirect.path(path) == path, "\(path)")
        }
    }

    @Test func everyControlCharacterAndDeleteAreRefusedAnywhere() {
        for value in Array(0...31) + [127] {
            let control = String(UnicodeScalar(UInt8(value)))
            let escaped = "%" + String(value, radix: 16, uppercase: true).leftPadded()
            for path in ["/\(control)/evil.example", "/u/alice\(control)", "\(control)//evil.example"] {
                #expect(LocalRedirect.path(path) == "/", "raw \(value)")
            }
            for path in ["/\(escaped)/evil.example", "/u/alice\(escaped)", "/\(escaped.lowercased())/evil.example"] {
                #expect(LocalRedirect.path(path) == "/", "\(path)")
            }
        }
    }

    @Test func anotherHostInAnyFormIsRefused() {
        for path in [
            "//evil.example", "//evil.example/", "///evil.example", "/\\evil.example", "\\\\evil.example",
            "/\\/evil.example", "\\/evil.example", "/@evil.example", "/u/alice@evil.example",
            "/%2F%2Fevil.example", "/%2f/evil.example", "/%5Cevil.example", "/%5c%5cevil.example", "/%09/evil.example",
            "/%40evil.example", "/%252F%252Fevil.example", "/%", "/%2", "/%zz", "/ evil", "/\"x\"", "/<x>",
            "https://evil.example/", "http:evil.example", "evil.example", "javascript:alert(1)",
            "JaVaScRiPt:alert(1)", "data:text/html,x", "", " /u/alice", "/u/é", "/\u{FF0F}evil.example",
        ] {
            #expect(LocalRedirect.path(path) == "/", "\(path)")
        }
        #expect(LocalRedirect.path(nil) == "/")
    }

    @Test func theLengthLimitIsCrossedByOne() {
        let longest = "/" + String(repeating: "a", count: LocalRedirect.maxBytes - 1)
        #expect(LocalRedirect.path(longest) == longest)
        #expect(LocalRedirect.path(longest + "a") == "/")
    }
}

extension String {
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }
}
