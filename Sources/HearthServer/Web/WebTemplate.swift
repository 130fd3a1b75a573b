import Foundation
import Mustache

/// The pages' Mustache templates, parsed once and rendered here rather than by swift-mustache:
/// its lookups cast every value to half a dozen protocols, a fifth of a rendered page's time.
/// The same subset Hearth's templates use (variables, dotted names, sections, inverted sections,
/// partials, comments, the content-type pragma), parsed by swift-mustache's rules, standalone
/// lines and partial indentation included, so a page comes out byte for byte the same
/// (`WebTemplateTests` compares the two on every template). Values are escaped by `WebEscaping`.
final class WebTemplate: Sendable {
    enum Token: Sendable {
        case text(String)
        case variable(Name)
        case section(Name, WebTemplate, inverted: Bool)
        case partial(String, indentation: String?)
    }

    /// A variable's name: `.` (the current object), or names to follow from where the first is
    /// found on the stack (from the current object only when it starts with a dot).
    enum Name: Sendable, Equatable {
        case current
        case path([String], fromCurrent: Bool)
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    let tokens: [Token]

    init(_ tokens: [Token]) { self.tokens = tokens }

    /// Parses `source` (with or without `WebEscaping.pragma` first).
    static func parse(_ source: String) throws -> WebTemplate {
        var parser = WebTemplateParser(source)
        return try parser.parse(section: nil, newLine: true)
    }
}

/// Templates by name, for partials and pages.
struct WebTemplates: Sendable {
    private(set) var templates: [String: WebTemplate] = [:]

    mutating func register(_ source: String, named name: String) throws {
        templates[name] = try WebTemplate.parse(source)
    }

    func render(_ object: Any, withTemplate name: String) -> String? {
        guard let template = templates[name] else { return nil }
        return render(template, Context(stack: [object], indentation: nil))
    }

    struct Context {
        var stack: [Any]
        var indentation: String?

        func with(_ object: Any) -> Context {
            var context = self
            context.stack.append(object)
            return context
        }
    }

    func render(_ template: WebTemplate, _ context: Context) -> String {
        var string = ""
        if let indentation = context.indentation, indentation != "" {
            for token in template.tokens {
                let rendered = render(token, context)
                if !rendered.isEmpty, string.last == "\n" { string += indentation }
                string += rendered
            }
        } else {
            for token in template.tokens { string += render(token, context) }
        }
        return string
    }

    private func render(_ token: WebTemplate.Token, _ context: Context) -> String {
        switch token {
        case .text(let text):
            return text
        case .variable(let name):
            return lookUp(name, context).map { WebEscaping.escape(Self.text($0)) } ?? ""
        case .section(let name, let template, let inverted):
            let child = lookUp(name, context)
            return inverted ? renderInverted(child, template, context) : renderSection(child, template, context)
        case .partial(let name, let indentation):
            guard let template = templates[name] else { return "" }
            var inner = context
            if let indentation { inner.indentation = (context.indentation ?? "") + indentation }
            return render(template, inner)
        }
    }

    /// As swift-mustache writes a value: the common types directly, the rest described.
    static func text(_ value: Any) -> String {
        switch value {
        case let string as String: return string
        case let int as Int: return String(int)
        case let int as Int64: return String(int)
        case let bool as Bool: return bool ? "true" : "false"
        default:
            if let optional = value as? any OptionalValue, let wrapped = optional.wrapped {
                return String(describing: wrapped)
            }
            return String(describing: value)
        }
    }

    private func renderSection(_ child: Any?, _ template: WebTemplate, _ context: Context) -> String {
        guard let child else { return "" }
        if let elements = Self.elements(child) {
            var string = ""
            for element in elements { string += render(template, context.with(element)) }
            return string
        }
        if let bool = child as? Bool { return bool ? render(template, context) : "" }
        return render(template, context.with(child))
    }

    private func renderInverted(_ child: Any?, _ template: WebTemplate, _ context: Context) -> String {
        guard let child else { return render(template, context) }
        if let elements = Self.elements(child) { return elements.isEmpty ? render(template, context.with(child)) : "" }
        if let bool = child as? Bool { return bool ? "" : render(template, context) }
        return ""
    }

    /// A list's elements (the lists pages hand over first, then any sequence swift-mustache renders as one).
    static func elements(_ value: Any) -> [Any]? {
        switch value {
        case let list as [[String: Any]]: return list
        case let list as [String]: return list
        case let list as [[String: String]]: return list
        case let list as any MustacheSequence: return Self.array(list)
        default: return nil
        }
    }

    private static func array<S: Sequence>(_ sequence: S) -> [Any] { sequence.map { $0 } }

    private func lookUp(_ name: WebTemplate.Name, _ context: Context) -> Any? {
        switch name {
        case .current:
            return context.stack.last
        case .path(let names, fromCurrent: true):
            return context.stack.last.flatMap { Self.follow(names[...], from: $0) }
        case .path(let names, fromCurrent: false):
            for object in context.stack.reversed() {
                if let child = Self.child(names[0], of: object) { return Self.follow(names.dropFirst(), from: child) }
            }
            return nil
        }
    }

    private static func follow(_ names: ArraySlice<String>, from object: Any) -> Any? {
        var object = object
        for name in names {
            guard let child = child(name, of: object) else { return nil }
            object = child
        }
        return object
    }

    /// One name looked up in one object: a dictionary's value, or (as swift-mustache does) a
    /// property found by reflection.
    static func child(_ name: String, of object: Any) -> Any? {
        switch object {
        case let values as [String: Any]: return values[name]
        case let values as [String: String]: return values[name]
        case let parent as MustacheParent: return parent.child(named: name)
        default:
            guard let matched = Mirror(reflecting: object).children.first(where: { $0.label == name }) else {
                return nil
            }
            let mirror = Mirror(reflecting: matched.value)
            guard mirror.displayStyle == .optional else { return matched.value }
            return mirror.children.first?.value
        }
    }
}

/// An optional held in an `Any`, unwrapped as swift-mustache unwraps it before describing it.
protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    var wrapped: Any? { self }
}
