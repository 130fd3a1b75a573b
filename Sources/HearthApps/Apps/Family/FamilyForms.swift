import Foundation
import HearthKit

/// The family page's forms, each the chat command it stands for, said by the signed-in member
/// and naming the page's family by its channel (`!post #family-12 …`), so a form on one
/// family's page never lands in another, whatever `!tree use` chose.
enum FamilyForms {
    /// A form's text as one chat line (a command is one line).
    static func line(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A route's positive number, as the command's word.
    static func number(_ parameters: [String: String], _ name: String) -> String? {
        guard let id = parameters[name].flatMap({ Int64($0) }), id > 0 else { return nil }
        return String(id)
    }

    /// The family's channel, named first in the command.
    static func target(_ parameters: [String: String]) -> String? {
        number(parameters, "id").map { FamilyCommands.channelName(Int64($0)!) }
    }

    /// A picture chosen with the upload form above (`?picture=ID`): hex only, or nothing.
    static func picture(_ form: [String: String]) -> String? {
        guard let id = form["picture"]?.trimmingCharacters(in: .whitespaces), !id.isEmpty,
            id.count <= 64, id.allSatisfy(\.isHexDigit)
        else { return nil }
        return id
    }

    static func back(_ parameters: [String: String]) -> String { "/family/\(number(parameters, "id") ?? "")" }

    /// `!post #family-N TEXT [PICTURE]`: text, a picture, or both.
    static let post = WebAction(
        "/family/:id/post",
        command: { p, form in
            guard let family = target(p) else { return nil }
            let words = [line(form["text"]), picture(form)].compactMap { $0 }
            return words.isEmpty ? nil : "!post \(family) " + words.joined(separator: " ")
        }, back: back)

    /// `!event #family-N DATE TITLE` (the date from a date field: YYYY-MM-DD).
    static let event = WebAction(
        "/family/:id/event",
        command: { p, form in
            guard let family = target(p), let date = line(form["date"]), !date.contains(" "),
                let title = line(form["title"])
            else { return nil }
            return "!event \(family) \(date) \(title)"
        }, back: back)

    /// `!like post N` / `!unlike post N`.
    static let like = WebAction(
        "/family/:id/p/:post/like",
        command: { p, form in
            guard target(p) != nil, let post = number(p, "post") else { return nil }
            return "!\(form["undo"] == "1" ? "unlike" : "like") post \(post)"
        }, back: { p in back(p) + "#p" + (number(p, "post") ?? "") })

    /// `!comment post N TEXT`.
    static let comment = WebAction(
        "/family/:id/p/:post/comment",
        command: { p, form in
            guard target(p) != nil, let post = number(p, "post"), let text = line(form["text"]) else { return nil }
            return "!comment post \(post) \(text)"
        }, back: { p in back(p) + "#p" + (number(p, "post") ?? "") })

    /// Where you are: `!loc LAT,LON [LABEL]` from the browser's position (asked for only when
    /// the button is pressed), or `!loc PLACE` from a typed place name without a script;
    /// `!loc on|off` for consenting or stopping.
    static let place = WebAction(
        "/family/:id/place",
        command: { p, form in
            guard target(p) != nil else { return nil }
            if let sharing = form["sharing"], ["on", "off"].contains(sharing) { return "!loc \(sharing)" }
            if let lat = form["lat"].flatMap(Double.init), let lon = form["lon"].flatMap(Double.init),
                lat.isFinite, lon.isFinite
            {
                let label = line(form["label"]).map { " " + $0 } ?? ""
                return "!loc " + String(format: "%.5f,%.5f", lat, lon) + label
            }
            return line(form["place"]).map { "!loc " + $0 }
        }, back: { p in back(p) + "#places" })

    /// `!person add #family-N "NAME" [sex f|m] [born DATE [in PLACE]] [died DATE [in PLACE]]`: someone in
    /// the tree who is not a user (the dates from date or year fields, as typed).
    static let person = WebAction(
        "/family/:id/person",
        command: { p, form in
            guard let family = target(p), let name = line(form["name"])?.replacingOccurrences(of: "\"", with: "")
            else { return nil }
            var words = ["!person add", family, "\"\(name)\""]
            if let sex = form["sex"], ["f", "m"].contains(sex) { words += ["sex", sex] }
            for event in ["born", "died"] {
                guard let date = line(form[event]), !date.contains(" ") else { continue }
                words += [event, date]
                if let place = line(form[event + "Place"]) { words += ["in", place] }
            }
            return words.joined(separator: " ")
        }, back: { p in back(p) + "#people" })

    /// `!family import #family-N` with the file's lines (the chosen .ged file, sent as a file up
    /// to `FamilyGEDCOM.maxImportBytes`, or text pasted): the command's block.
    static let gedcom: WebAction = {
        var action = WebAction(
            "/family/:id/import",
            command: { p, form in
                guard let family = target(p), let text = form["gedcom"], !text.isEmpty else { return nil }
                let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                return "!family import \(family)\n" + lines
            }, back: { p in back(p) + "#import" })
        action.isLong = true
        (action.fileLimit, action.fileField) = (FamilyGEDCOM.maxImportBytes, "gedcom")
        return action
    }()

    /// `!tree role #family-N USER admin|member`: the Members table's buttons.
    static let role = WebAction(
        "/family/:id/role",
        command: { p, form in
            guard let family = target(p), let name = line(form["name"]), !name.contains(" "),
                let role = form["role"], ["admin", "member"].contains(role)
            else { return nil }
            return "!tree role \(family) \(name) \(role)"
        }, back: back)

    static let all: [WebAction] = [post, event, like, comment, place, person, gedcom, role]
}
