import CGD

/// Many pictures as one, in rows like a phone's photo grid. Each picture is fitted whole into
/// its tile (letterboxed, never cropped: a meme's captions stay readable); a row is as tall as
/// its tallest fitted picture (so wide memes leave no dark bands), and a last row that is not
/// full shares the whole width, so no tile is left empty.
public enum GridLayout {
    public static let maxTiles = 24
    public static let tileSide = 240
    public static let gap = 6
    public static let maxColumns = 4
    public static let background = GDImage.color(24, 24, 28)

    public static func columns(for count: Int) -> Int {
        var columns = 1
        while columns * columns < count && columns < maxColumns { columns += 1 }
        return columns
    }

    public typealias Frame = (x: Int, y: Int, w: Int, h: Int)

    /// Where each picture of these sizes goes, and the grid's size: full rows of `tileSide`
    /// wide tiles, then the remaining tiles, wider, across the last row.
    public static func frames(for sizes: [(width: Int, height: Int)]) -> (frames: [Frame], width: Int, height: Int) {
        let count = max(1, sizes.count)
        let columns = columns(for: count)
        let span = columns * (tileSide + gap) - gap
        var frames: [Frame] = []
        var y = gap
        for start in stride(from: 0, to: sizes.count, by: columns) {
            let row = sizes[start..<min(sizes.count, start + columns)]
            let w = (span - (row.count - 1) * gap) / row.count
            let fitted = row.map { min(tileSide, fit($0, into: (w, tileSide)).h) }
            let h = max(tileSide / 4, fitted.max() ?? tileSide)
            for i in row.indices { frames.append((gap + (i - start) * (w + gap), y, w, h)) }
            y += h + gap
        }
        return (frames, gap + span + gap, sizes.isEmpty ? gap + tileSide + gap : y)
    }

    /// A picture's size scaled to fit inside `box`, keeping its shape.
    static func fit(_ size: (width: Int, height: Int), into box: (w: Int, h: Int)) -> (w: Int, h: Int) {
        let scale = min(Double(box.w) / Double(max(1, size.width)), Double(box.h) / Double(max(1, size.height)))
        return (
            max(1, min(box.w, Int((Double(size.width) * scale).rounded()))),
            max(1, min(box.h, Int((Double(size.height) * scale).rounded())))
        )
    }

    public static func draw(_ tiles: [GDImage]) -> GDImage {
        let tiles = Array(tiles.prefix(maxTiles))
        let layout = frames(for: tiles.map { ($0.width, $0.height) })
        let image = GDImage(width: layout.width, height: layout.height)
        image.fill(background)
        for (tile, frame) in zip(tiles, layout.frames) {
            let (w, h) = fit((tile.width, tile.height), into: (frame.w, frame.h))
            image.draw(tile, x: frame.x + (frame.w - w) / 2, y: frame.y + (frame.h - h) / 2, width: w, height: h)
        }
        return image
    }
}
