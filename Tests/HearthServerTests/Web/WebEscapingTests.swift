import Testing

@testable import HearthServer

/// The templates' HTML escaping escapes what Mustache's own does, and nothing else.
@Suite struct WebEscapingTests {
    @Test func theFiveCharactersAreEscapedAndTheRestKept() {
        #expect(
            WebEscaping.escape(#"<a href="x" title='y'>Tom & Jerry</a>"#)
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;")
        #expect(WebEscaping.escape("café ☕ — plain") == "café ☕ — plain")
        #expect(WebEscaping.escape("") == "")
        #expect(WebEscaping.escape("é<") == "é&lt;")
    }
}
