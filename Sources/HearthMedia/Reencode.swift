/// An upload as Hearth keeps it: decoded, fitted to `MediaLimits.storedSide` and encoded
/// again, which drops every byte of metadata (EXIF, GPS, comments) the sender had in it.
public struct ReencodedImage: Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    public let width: Int
    public let height: Int
}

extension ImageProbe {
    /// Decodes bytes this probe accepted (GIF: the first frame) and re-encodes them; nil
    /// when libgd cannot decode them (damaged, or a variant it lacks). Photos stay JPEG;
    /// anything with transparency stays lossless PNG.
    /// `square`: keep only the largest square, at that place along the long side (see `squared`).
    public func reencode(_ bytes: [UInt8], square: Double? = nil) -> ReencodedImage? {
        guard let decoded = GDImage.decode(bytes, format: format) else { return nil }
        // The pixel limits were checked against the header; refuse a file whose picture
        // turns out to be another size than it declared.
        guard decoded.width == width, decoded.height == height else { return nil }
        // Upright first: the tag is dropped with the rest, and the square is chosen on the upright picture.
        let upright = format == .jpeg ? decoded.oriented(ExifOrientation.read(bytes)) : decoded
        let image = (square.map { upright.squared(focus: $0) } ?? upright).fitted(maxSide: MediaLimits.storedSide)
        let asJPEG = format == .jpeg || !image.hasTransparency
        return ReencodedImage(
            bytes: asJPEG ? image.jpeg(quality: 88) : image.png(level: 3), format: asJPEG ? .jpeg : .png,
            width: image.width, height: image.height)
    }
}
