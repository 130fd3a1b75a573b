import CGD

/// Many pictures as one: square tiles (each picture centre-cropped) in rows, like a phone's
/// photo grid.
public enum GridLayout {
    public static let maxTiles = 24
    public static let tileSide = 240
    public static let gap = 6
    public static let maxColumns = 4

    public static func columns(for count: Int) -> Int {
        var columns = 1
        while columns * columns < count && columns < maxColumns { columns += 1 }
        return columns
    }

    /// Where tile `index` goes, for `count` tiles.
    public static func origin(of index: Int, count: Int) -> (x: Int, y: Int) {
        let columns = columns(for: count)
        return (gap + (index % columns) * (tileSide + gap), gap + (index / columns) * (tileSide + gap))
    }

    public static func draw(_ tiles: [GDImage]) -> GDImage {
        let count = max(1, tiles.count)
        let columns = columns(for: count)
        let rows = (count + columns - 1) / columns
        let image = GDImage(width: gap + columns * (tileSide + gap), height: gap + rows * (tileSide + gap))
        image.fill(GDImage.color(24, 24, 28))
        for (index, tile) in tiles.prefix(maxTiles).enumerated() {
            let side = min(tile.width, tile.height)
            let (x, y) = origin(of: index, count: count)
            // Crop the centre square, then scale it to the tile.
            let square = GDImage(width: side, height: side)
            gdImageCopy(
                square.ptr, tile.ptr, 0, 0, Int32((tile.width - side) / 2), Int32((tile.height - side) / 2),
                Int32(side), Int32(side))
            image.draw(square, x: x, y: y, width: tileSide, height: tileSide)
        }
        return image
    }
}
