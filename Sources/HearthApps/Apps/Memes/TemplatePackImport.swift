import Foundation
import HearthMedia
import HearthMediaLibrary
import HearthStore

/// `hearth templates import DIR`: every good folder of a memegen-style pack becomes a global
/// (operator) template with its boxes, title, keywords, example and source; a bad one is
/// named with its reason and skipped, and the rest still come in.
public enum TemplatePackImport {
    public struct Report: Sendable {
        public var imported: [String] = []
        public var skipped: [(folder: String, reason: String)] = []
    }

    public static func run(_ directory: URL, store: Store, media: MediaLibrary) async throws -> Report {
        var report = Report()
        let taken = Set(try await store.templates(for: nil).filter { $0.ownerId == nil }.map(\.nameKey))
        for folder in try TemplatePack.folders(in: directory) {
            do {
                let entry = try TemplatePack.read(folder, nameProblem: TemplateNames.problem)
                if taken.contains(entry.name) {
                    throw TemplatePack.Problem("there is a global template called \(entry.name) already")
                }
                try await add(entry, store: store, media: media)
                report.imported.append(entry.name)
            } catch let problem as TemplatePack.Problem {
                report.skipped.append((folder.lastPathComponent, problem.description))
            }
        }
        return report
    }

    static func add(_ entry: TemplatePack.Entry, store: Store, media: MediaLibrary) async throws {
        guard let bytes = FileManager.default.contents(atPath: entry.picture.path) else {
            throw TemplatePack.Problem("cannot read \(entry.picture.lastPathComponent)")
        }
        let image: ImageRecord
        do { image = try await media.ingest([UInt8](bytes), ownerID: nil) } catch {
            throw TemplatePack.Problem("its picture \(entry.picture.lastPathComponent): \(error)")
        }
        // Whatever goes wrong after the picture is kept takes the picture with it: no file is left
        // that no template uses, and the folder is reported as skipped, the rest still imported.
        do {
            guard try await store.addUpload(image, tokenHash: nil) else {
                throw TemplatePack.Problem("its picture could not be kept")
            }
            let boxes = String(decoding: try JSONEncoder().encode(entry.boxes), as: UTF8.self)
            _ = try await store.addTemplate(
                TemplateRecord(
                    ownerId: nil, name: entry.name, imageId: image.id, boxes: boxes, title: entry.title,
                    keywords: entry.keywords, source: entry.source, example: entry.example))
        } catch {
            media.delete(ids: [image.id])
            switch error {
            case let problem as TemplatePack.Problem: throw problem
            case StoreError.nameTaken:
                throw TemplatePack.Problem("there is a global template called \(entry.name) already")
            default: throw TemplatePack.Problem("the store refused it: \(error)")
            }
        }
    }
}
