import Foundation
import HearthCrypto
import HearthMedia
import HearthStore
import NIOPosix
import Synchronization

/// Pictures on disk and the libgd work on them. Files are media/<id>.<ext>, written once
/// and never changed; ids are 128 random bits. Decoding and drawing run on a small thread
/// pool of their own, never on an event loop.
public final class MediaLibrary: Sendable {
    /// Told how long each meme took to draw (the server's metrics).
    public let renderObserver = Hook<Duration>()
    public let directory: URL
    /// Links start with this (e.g. `http://localhost:8080`); set once the HTTP port is known.
    public var publicURL: String { base.withLock { $0 } }
    private let base: Mutex<String>
    let pool: NIOThreadPool
    public let renderer: MemeRenderer?
    /// The world map, loaded once.
    let worldMapBase: WorldMap?
    /// Decoded, fitted pictures that memes are drawn on, by template or image id.
    private let pictures = Mutex<[String: (image: GDImage, used: UInt64)]>([:])
    private let clock = Atomic<UInt64>(0)
    /// How many decoded template pictures stay in memory.
    public static let cachedBases = 48
    /// How long an upload link works.
    public static let uploadLinkLifetime: TimeInterval = 10 * 60

    /// Where pictures are shared with other processes (PostgreSQL), if anywhere: every new
    /// picture is put there, and one missing here is fetched from there (and kept as a file).
    let shared: (any PictureStore)?

    public init(directory: URL, publicURL: String, threads: Int = 2, shared: (any PictureStore)? = nil) throws {
        self.directory = directory
        self.shared = shared
        base = Mutex(publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        renderer = FontSet.installed().map { MemeRenderer(fonts: $0) }
        worldMapBase = FontSet.installed().flatMap { WorldMap(fonts: $0) }
    }

    public func setPublicURL(_ url: String) { base.withLock { $0 = url } }

    public func shutdown() async throws { try await pool.shutdownGracefully() }

    public static func newID() -> String { Sodium.hex(Sodium.randomBytes(16)) }

    /// Is `text` shaped like an image id (so nothing else can name a file)?
    public static func isImageID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    public func url(_ image: ImageRecord) -> String { url(id: image.id, format: image.format) }

    public func url(id: String, format: String) -> String { publicURL + Self.path(id: id, format: format) }

    /// A picture's path on the HTTP port (pages link to it relative to themselves).
    public static func path(id: String, format: String) -> String {
        "/i/\(id).\(ImageFormat(rawValue: format)?.fileExtension ?? format)"
    }

    func fileURL(id: String, format: String) -> URL {
        directory.appendingPathComponent("\(id).\(ImageFormat(rawValue: format)?.fileExtension ?? format)")
    }

    /// Runs libgd work on the media pool.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(work)
    }

    /// Writes a new file (to a temporary name first, so a reader never sees half of it).
    func write(_ bytes: [UInt8], id: String, format: ImageFormat) throws -> URL {
        let target = fileURL(id: id, format: format.rawValue)
        // A name of its own: two requests may draw the same shared picture at once.
        let temporary = directory.appendingPathComponent(".\(id).\(UInt64.random(in: 0...UInt64.max)).tmp")
        try Data(bytes).write(to: temporary)
        // rename(2) replaces the target in one step, so a reader sees the old file or the new one.
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw MediaError("could not keep the picture \(id): \(String(cString: strerror(errno)))")
        }
        return target
    }

    /// Reads a stored file, for the HTTP side.
    public func read(id: String, ext: String) async throws -> [UInt8]? {
        guard Self.isImageID(id), ImageFormat.allCases.contains(where: { $0.fileExtension == ext }) else { return nil }
        let file = directory.appendingPathComponent("\(id).\(ext)")
        if let bytes = try await run({ FileManager.default.contents(atPath: file.path).map { [UInt8]($0) } }) {
            return bytes
        }
        guard let format = ImageFormat.allCases.first(where: { $0.fileExtension == ext }) else { return nil }
        return try await fetchShared(id: id, format: format)
    }

    /// A picture another process made: from the shared store, kept here as a file from then on.
    func fetchShared(id: String, format: ImageFormat) async throws -> [UInt8]? {
        guard let shared, let bytes = try await shared.picture(id: id) else { return nil }
        _ = try await run { try self.write(bytes, id: id, format: format) }
        return bytes
    }

    /// Makes sure a stored picture is here as a file (for drawing on it).
    func localCopy(_ image: ImageRecord) async throws {
        guard shared != nil, let format = ImageFormat(rawValue: image.format),
            !FileManager.default.fileExists(atPath: fileURL(id: image.id, format: image.format).path)
        else { return }
        _ = try await fetchShared(id: image.id, format: format)
    }

    /// Runs `work` (which writes a new picture file) on the pool, then shares the bytes.
    func keep(_ work: @escaping @Sendable () throws -> (ImageRecord, [UInt8])) async throws -> ImageRecord {
        let (record, bytes) = try await run(work)
        try await shared?.putPicture(id: record.id, bytes: bytes)
        return record
    }

    public func delete(ids: [String]) {
        if let shared { Task { try? await shared.deletePictures(ids: ids) } }
        for id in ids {
            for format in ImageFormat.allCases {
                try? FileManager.default.removeItem(at: fileURL(id: id, format: format.rawValue))
            }
        }
    }

    // MARK: uploads

    public enum UploadError: Error, CustomStringConvertible {
        case invalid(ImageProbe.Problem)
        case undecodable
        case animation(GIFDecoder.Problem)
        public var description: String {
            switch self {
            case .invalid(let problem): return problem.description
            case .animation(let problem): return problem.description
            case .undecodable: return "the image could not be decoded (damaged or an unsupported variant)"
            }
        }
    }

    /// Checks an upload by its content, decodes it (an animated GIF: every frame), scales it to
    /// the stored size and re-encodes it — which drops all metadata (EXIF, GPS). Writes the file
    /// and returns its record, not yet in the database.
    /// `square`: a profile picture, cut to its largest square (see `GDImage.squared`).
    public func ingest(_ bytes: [UInt8], ownerID: Int64?, square: Double? = nil) async throws -> ImageRecord {
        let probe: ImageProbe
        do { probe = try ImageProbe.inspect(bytes) } catch { throw UploadError.invalid(error) }
        let id = Self.newID()
        return try await keep {
            if square == nil, let animated = try Self.animatedUpload(bytes, probe: probe) {
                _ = try self.write(animated.bytes, id: id, format: .gif)
                return (
                    ImageRecord(
                        id: id, ownerId: ownerID, kind: "upload", format: ImageFormat.gif.rawValue,
                        width: animated.width, height: animated.height, bytes: animated.bytes.count), animated.bytes
                )
            }
            guard let image = probe.reencode(bytes, square: square) else { throw UploadError.undecodable }
            _ = try self.write(image.bytes, id: id, format: image.format)
            return (
                ImageRecord(
                    id: id, ownerId: ownerID, kind: "upload", format: image.format.rawValue, width: image.width,
                    height: image.height, bytes: image.bytes.count), image.bytes
            )
        }
    }

    // MARK: memes

    /// The picture memes are drawn on, decoded and fitted once, cloned per render.
    func base(key: String, make: () throws -> GDImage) rethrows -> GDImage {
        let tick = clock.add(1, ordering: .relaxed).newValue
        if let cached = pictures.withLock({ cache -> GDImage? in
            guard let entry = cache[key] else { return nil }
            cache[key]!.used = tick
            return entry.image
        }) {
            return cached
        }
        let image = try make().fitted(maxSide: MediaLimits.memeSide)
        pictures.withLock { cache in
            cache[key] = (image, tick)
            if cache.count > Self.cachedBases, let oldest = cache.min(by: { $0.value.used < $1.value.used })?.key {
                cache[oldest] = nil
            }
        }
        return image
    }

    /// Decodes a stored picture (for drawing on it).
    func decodeStored(_ image: ImageRecord) throws -> GDImage {
        let file = fileURL(id: image.id, format: image.format)
        guard let data = FileManager.default.contents(atPath: file.path),
            let format = ImageFormat(rawValue: image.format),
            let decoded = GDImage.decode([UInt8](data), format: format)
        else { throw MediaError("that picture's file is missing") }
        return decoded
    }

    /// What a meme is drawn from.
    public enum MemeBase: Sendable {
        case builtin(BuiltinTemplate)
        case stored(ImageRecord)

        var cacheKey: String {
            switch self {
            case .builtin(let t): return "builtin:\(t.name)"
            case .stored(let image): return image.id
            }
        }
    }

    /// A stable key for a render: same picture, boxes, captions and size → same meme.
    public static func renderKey(base: MemeBase, boxes: [CaptionBox], captions: [String], textScale: Double) -> String {
        let boxText = boxes.map {
            "\($0.x),\($0.y),\($0.w),\($0.h),\($0.align.rawValue),\($0.style.rawValue)\($0.lookKey)"
        }.joined(separator: ";")
        return Sodium.hashSecret(
            "meme/v1\u{0}\(base.cacheKey)\u{0}\(boxText)\u{0}\(textScale)\u{0}\(captions.joined(separator: "\u{0}"))")
    }

    /// Draws a meme and stores it (a JPEG unless `format` says otherwise; `width` and `height`
    /// scale it to fit, keeping its shape); returns the record, not yet in the database.
    public func renderMeme(
        base: MemeBase, boxes: [CaptionBox], captions: [String], textScale: Double, format: ImageFormat = .jpeg,
        width: Int? = nil, height: Int? = nil
    ) async throws -> ImageRecord {
        guard let renderer else {
            throw MediaError("memes need the caption fonts (fonts-dejavu-core); ask the operator to run scripts/setup")
        }
        let id = Self.newID()
        if case .stored(let image) = base { try await localCopy(image) }
        let started = ContinuousClock.now
        defer { renderObserver(.now - started) }
        return try await keep {
            if case .stored(let stored) = base, let animation = self.animation(stored) {
                // Every frame captioned; an animation stays a GIF whatever format was asked for.
                let meme = try self.animatedMeme(
                    renderer, animation, boxes: boxes, captions: captions, scale: textScale)
                _ = try self.write(meme.bytes, id: id, format: .gif)
                return (
                    ImageRecord(
                        id: id, ownerId: nil, kind: "meme", format: ImageFormat.gif.rawValue, width: meme.width,
                        height: meme.height, bytes: meme.bytes.count), meme.bytes
                )
            }
            let drawn = try self.drawMeme(renderer, base: base, boxes: boxes, captions: captions, scale: textScale)
            let picture = Self.resized(drawn, width: width, height: height)
            let bytes = picture.encoded(format)
            guard !bytes.isEmpty else { throw MediaError("this server's libgd cannot write \(format.rawValue)") }
            _ = try self.write(bytes, id: id, format: format)
            return (
                ImageRecord(
                    id: id, ownerId: nil, kind: "meme", format: format.rawValue, width: picture.width,
                    height: picture.height, bytes: bytes.count), bytes
            )
        }
    }

    /// `picture` scaled to `width` (or `height`) keeping its shape, or to fit inside both.
    static func resized(_ picture: GDImage, width: Int?, height: Int?) -> GDImage {
        let (w, h) = (Double(picture.width), Double(picture.height))
        let scale: Double
        switch (width, height) {
        case (nil, nil): return picture
        case (let width?, nil): scale = Double(width) / w
        case (nil, let height?): scale = Double(height) / h
        case (let width?, let height?): scale = min(Double(width) / w, Double(height) / h)
        }
        return picture.scaled(width: max(1, Int((w * scale).rounded())), height: max(1, Int((h * scale).rounded())))
    }

    /// The longest side of a preview: the same layout as the meme at about a third of the
    /// pixels, so twenty people typing at once do not queue behind each other's previews.
    public static let previewSide = 480

    /// A meme as it would be made, as JPEG bytes kept nowhere: the web maker's live preview,
    /// drawn by the same renderer as `renderMeme` on the same picture, made `previewSide` (the
    /// boxes are fractions of the picture and the text fits them, so it looks the same, smaller).
    public func previewMeme(base: MemeBase, boxes: [CaptionBox], captions: [String], textScale: Double) async throws
        -> [UInt8]
    {
        guard let renderer else {
            throw MediaError("memes need the caption fonts (fonts-dejavu-core); ask the operator to run scripts/setup")
        }
        if case .stored(let image) = base { try await localCopy(image) }
        return try await run {
            try self.drawMeme(renderer, base: base, boxes: boxes, captions: captions, scale: textScale, preview: true)
                .jpeg(quality: 75)
        }
    }

    func drawMeme(
        _ renderer: MemeRenderer, base: MemeBase, boxes: [CaptionBox], captions: [String], scale: Double,
        preview: Bool = false
    ) throws -> GDImage {
        func full() throws -> GDImage {
            try self.base(key: base.cacheKey) {
                switch base {
                case .builtin(let template): return template.picture()
                case .stored(let image): return try self.decodeStored(image)
                }
            }
        }
        let source =
            try preview
            ? self.base(key: base.cacheKey + "@preview") { try full().fitted(maxSide: Self.previewSide) } : full()
        let picture = source.clone()
        renderer.caption(picture, boxes: boxes, captions: captions, textScale: scale)
        return picture
    }

    /// The world map with numbered markers and a legend, as a PNG.
    public func worldMap(title: String, markers: [WorldMap.Marker], ownerID: Int64?) async throws -> ImageRecord {
        guard let world = worldMapBase else {
            throw MediaError("maps need the map data and fonts; ask the operator to run scripts/setup")
        }
        let id = Self.newID()
        return try await keep {
            let picture = world.render(title: title, markers: markers)
            let png = picture.png(level: 3)
            _ = try self.write(png, id: id, format: .png)
            return (
                ImageRecord(
                    id: id, ownerId: ownerID, kind: "map", format: "png", width: picture.width, height: picture.height,
                    bytes: png.count), png
            )
        }
    }

    /// A family tree picture, as a PNG at `FamilyTreePicture.defaultScale` (sharp on a phone).
    public func familyTree(
        title: String, people: [FamilyTreePicture.Person], parents: [(parent: Int64, child: Int64)],
        partners: [(Int64, Int64)], ownerID: Int64?
    ) async throws -> ImageRecord {
        guard let fonts = FontSet.installed() else {
            throw MediaError("tree pictures need the fonts; ask the operator to run scripts/setup")
        }
        let id = Self.newID()
        return try await keep {
            let picture = FamilyTreePicture(fonts: fonts).draw(
                title: title, people: people, parents: parents, partners: partners,
                scale: FamilyTreePicture.defaultScale)
            let png = picture.png(level: 3)
            _ = try self.write(png, id: id, format: .png)
            return (
                ImageRecord(
                    id: id, ownerId: ownerID, kind: "tree", format: "png", width: picture.width, height: picture.height,
                    bytes: png.count), png
            )
        }
    }

    /// One picture with the given images as tiles (at most `GridLayout.maxTiles`).
    public func grid(_ images: [ImageRecord], ownerID: Int64) async throws -> ImageRecord {
        let id = Self.newID()
        for image in images.prefix(GridLayout.maxTiles) { try await localCopy(image) }
        return try await keep {
            let tiles = images.prefix(GridLayout.maxTiles).compactMap { try? self.decodeStored($0) }
            let picture = GridLayout.draw(tiles)
            let jpeg = picture.jpeg(quality: 85)
            _ = try self.write(jpeg, id: id, format: .jpeg)
            return (
                ImageRecord(
                    id: id, ownerId: ownerID, kind: "grid", format: "jpeg", width: picture.width,
                    height: picture.height,
                    bytes: jpeg.count), jpeg
            )
        }
    }
}
