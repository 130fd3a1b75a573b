import HearthMedia

/// What must hold for any bytes sent as an upload. Run by the `image-upload` fuzzer
/// (scripts/fuzz) and, over its saved corpus, by the unit tests. Returns what went wrong.
public enum MediaFuzzChecks {
    public static func upload(_ bytes: [UInt8]) -> String? {
        guard let probe = try? ImageProbe.inspect(bytes) else { return nil }  // refused: fine
        if probe.width * probe.height > MediaLimits.maxPixels { return "probe passed \(probe.width)×\(probe.height)" }
        guard let image = probe.reencode(bytes) else { return nil }  // undecodable: refused
        if max(image.width, image.height) > MediaLimits.storedSide { return "stored \(image.width)×\(image.height)" }
        // What Hearth stores must itself be a clean, complete picture of the size it reports.
        guard let again = try? ImageProbe.inspect(image.bytes) else { return "re-encoded bytes do not probe" }
        if again.format != image.format || again.width != image.width || again.height != image.height {
            return "re-encoded \(again) but reported \(image.format) \(image.width)×\(image.height)"
        }
        return nil
    }
}
