/// The EXIF orientation of a JPEG (tag 0x0112 in IFD0 of its APP1 "Exif" segment): how a
/// camera that stored the pixels sideways says to turn them. Re-encoding drops the tag, so the
/// turn is applied to the pixels (`GDImage.oriented`) or a phone's portrait photo lies on its side.
public enum ExifOrientation {
    /// 1 (as stored) to 8; 1 when the file has no tag or it cannot be read. Reads only the
    /// segments before the first frame, each within its declared length.
    public static func read(_ b: [UInt8]) -> Int {
        guard b.starts(with: [0xFF, 0xD8]) else { return 1 }
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return 1 }  // the picture starts: no tag before it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return 1 }
            if marker == 0xE1, let value = orientation(b[(i + 4)..<(i + 2 + length)]) { return value }
            i += 2 + length
        }
        return 1
    }

    /// The tag in one APP1 segment's body, if it is an Exif one that has it.
    static func orientation(_ segment: ArraySlice<UInt8>) -> Int? {
        let s = Array(segment)
        guard s.count >= 14, s.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = 6
        let little: Bool
        switch (s[tiff], s[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= s.count else { return nil }
            return little ? Int(s[at]) | Int(s[at + 1]) << 8 : Int(s[at]) << 8 | Int(s[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4).map({ tiff + $0 }), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 256) {
            let at = ifd + 2 + 12 * entry
            guard let tag = u16(at) else { return nil }
            // SHORT, one value: in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}

extension GDImage {
    /// The picture turned upright for EXIF `orientation` (1–8); itself for 1 or an unknown value.
    public func oriented(_ orientation: Int) -> GDImage {
        guard (2...8).contains(orientation) else { return self }
        let (w, h) = (width, height)
        let swaps = orientation >= 5
        let turned = GDImage(width: swaps ? h : w, height: swaps ? w : h)
        turned.ptr.pointee.saveAlphaFlag = ptr.pointee.saveAlphaFlag
        let source = ptr.pointee.tpixels!
        let target = turned.ptr.pointee.tpixels!
        for y in 0..<turned.height {
            let row = target[y]!
            for x in 0..<turned.width {
                // Where the upright pixel (x, y) is in the stored picture.
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case 2: (w - 1 - x, y)  // mirrored
                    case 3: (w - 1 - x, h - 1 - y)  // upside down
                    case 4: (x, h - 1 - y)  // mirrored upside down
                    case 5: (y, x)  // mirrored, on its side
                    case 6: (y, h - 1 - x)  // stored turned left: turn right
                    case 7: (w - 1 - y, h - 1 - x)  // mirrored, on its other side
                    default: (w - 1 - y, x)  // 8, stored turned right: turn left
                    }
                row[x] = source[sy]![sx]
            }
        }
        return turned
    }
}
