import Foundation
import HearthKit
import Mustache
import Testing

@testable import HearthApps
@testable import HearthServer

/// The pages' own renderer (`WebTemplate`) writes every template exactly as swift-mustache does,
/// whatever the values: lists, flags, missing names, nested lookups, hostile text.
@Suite struct WebTemplateTests {
    /// Every template the site registers, by name (as `WebRoutes` registers them).
    static let templates: [(String, String)] =
        [("home", WebLayout.home), ("signin", WebLayout.signIn), ("problem", WebLayout.problem)]
        + AccountTemplates.all + WebPartials.all.map { ($0.key, $0.value) }
        + BuiltInApps.builtIn().flatMap(\.pages).map { ($0.name, $0.template) }

    /// The names a template uses: values, and sections (with their kind).
    static func names(_ source: String) -> (values: Set<String>, sections: Set<String>) {
        var values = Set<String>()
        var sections = Set<String>()
        let tag = /\{\{([#^\/>!%]?)\s*([A-Za-z0-9_.?-]*)[^}]*\}\}/
        for match in source.matches(of: tag) {
            let name = String(match.output.2)
            switch match.output.1 {
            case "#", "^": sections.insert(name)
            case "": if name != "." { values.insert(name) }
            default: break
            }
        }
        return (values, sections)
    }

    /// Contexts of every shape for the names: `section` gives what a section's name holds.
    static func context(_ names: (values: Set<String>, sections: Set<String>), value: Any, section: (Int) -> Any)
        -> [String: Any]
    {
        var context: [String: Any] = [:]
        for (index, name) in names.values.sorted().enumerated() {
            let parts = name.split(separator: ".").map(String.init)
            if parts.count > 1 {
                context[parts[0]] = [parts[1]: "\(value)-\(index)"]
            } else {
                context[name] = index.isMultiple(of: 3) ? index : "\(value)-\(index)"
            }
        }
        for (index, name) in names.sections.sorted().enumerated() { context[name] = section(index) }
        return context
    }

    @Test func everyTemplateRendersAsSwiftMustacheRendersIt() throws {
        WebEscaping.register()
        var mustache = MustacheLibrary()
        var ours = WebTemplates()
        for (name, source) in Self.templates {
            try mustache.register(WebEscaping.pragma + source, named: name)
            try ours.register(WebEscaping.pragma + source, named: name)
        }
        var all = (values: Set<String>(), sections: Set<String>())
        for (_, source) in Self.templates {
            let names = Self.names(source)
            all.values.formUnion(names.values)
            all.sections.formUnion(names.sections)
        }
        let hostile = #"<b a='1'>"x" & y</b>"#
        let inner = Self.context(all, value: "inner", section: { _ in true })
        let second = Self.context(all, value: "second", section: { _ in false })
        let shapes: [(String, (Int) -> Any)] = [
            ("lists", { _ in [inner, second] as [[String: Any]] }),
            ("true", { _ in true }), ("false", { _ in false }), ("empty lists", { _ in [[String: Any]]() }),
            ("objects", { index in index.isMultiple(of: 2) ? inner as Any : "text \(index)" as Any }),
            ("strings", { index in ["one", "two <3", String(index)] }),
            ("missing", { _ in Optional<Int>.none as Any }),
        ]
        var compared = 0
        for (name, _) in Self.templates {
            for (shape, section) in shapes {
                for value in [hostile, "plain"] {
                    let context = Self.context(all, value: value, section: section)
                    let expected = mustache.render(context, withTemplate: name)
                    let got = ours.render(context, withTemplate: name)
                    #expect(got == expected, "\(name) with \(shape) sections")
                    compared += 1
                }
            }
            #expect(ours.render([String: Any](), withTemplate: name) == mustache.render([:], withTemplate: name))
        }
        #expect(compared > 100)
    }

    @Test func standaloneLinesAndIndentedPartialsAreWrittenAsMustacheWritesThem() throws {
        let sources = [
            ("p", "line one\n  {{#x}}\n  inner {{v}}\n  {{/x}}\nlast"),
            ("q", "a\n  {{> p}}\n  {{! note }}\nb {{#x}}{{.}}{{/x}} {{^none}}none{{/none}}\n\t{{^x}}\n{{/x}}\n{{v}}"),
            ("r", "{{#x}}\n{{#y}}\n  {{> p}}\n{{/y}}\n{{/x}}{{%  CONTENT_TYPE: HEARTH_HTML }}\n{ {{v}} } x"),
        ]
        WebEscaping.register()
        var mustache = MustacheLibrary()
        var ours = WebTemplates()
        for (name, source) in sources {
            try mustache.register(source, named: name)
            try ours.register(source, named: name)
        }
        for context: [String: Any] in [
            ["x": [["v": "1"], ["v": "<2>"]], "y": true, "v": "&"], ["x": ["a", "b"], "v": 3], ["x": false], [:],
        ] {
            for name in ["p", "q", "r"] {
                #expect(ours.render(context, withTemplate: name) == mustache.render(context, withTemplate: name))
            }
        }
        #expect(throws: WebTemplate.ParseError.self) { try WebTemplate.parse("{{{raw}}}") }
        #expect(throws: WebTemplate.ParseError.self) { try WebTemplate.parse("{{#open}} never closed") }
    }
}
