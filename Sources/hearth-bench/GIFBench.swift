import ArgumentParser
import Foundation
import HearthMedia

/// A meme on an animated GIF in this process, one at a time: the frames read, each drawn whole,
/// the captions laid out once and put on every frame, and the animation written again.
struct GIFRender: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gif-render", abstract: "Time a meme on an animated GIF (every frame captioned).")
    @Option(help: "Memes to render.") var count = 30
    @Option(help: "Frames of the GIF.") var frames = 40
    @Option(help: "Width of the GIF.") var width = 480
    @Option(help: "Height of the GIF.") var height = 360

    func run() async throws {
        guard let fonts = FontSet.installed() else {
            throw ValidationError("caption fonts are not installed (scripts/setup)")
        }
        let renderer = MemeRenderer(fonts: fonts)
        let gif = Self.sample(frames: frames, width: width, height: height)
        var times: [Double] = []
        var bytes = 0
        for n in 0..<count {
            let start = nowNanos()
            let meme = try AnimatedGIF.captioned(
                gif, renderer: renderer, boxes: CaptionBox.classic,
                captions: ["gif number \(n) with a caption", "and a bottom line \(n * 7)"], textScale: 1)
            bytes += meme?.bytes.count ?? 0
            times.append(Double(nowNanos() - start) / 1e6)
        }
        times.sort()
        func pct(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p / 100))] }
        let line: [String: Any] = [
            "scenario": "gif-render", "server": "hearth", "count": count, "frames": frames, "width": width,
            "height": height, "gif_bytes": gif.count, "p50_ms": pct(50), "p99_ms": pct(99),
            "avg_out_bytes": bytes / count,
        ]
        let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// A photo-like animation: a colour gradient with a disc moving across it.
    static func sample(frames: Int, width: Int, height: Int) -> [UInt8] {
        let pictures = (0..<frames).map { i in
            let picture = GDImage(width: width, height: height)
            for y in 0..<height {
                picture.rect(0, y, width, 1, GDImage.color(y * 255 / height, 120, 255 - y * 255 / height))
            }
            picture.ellipse(width * i / frames, height / 2, height / 3, height / 3, GDImage.color(250, 200, 40))
            return picture
        }
        return AnimatedGIF.encode(pictures, delays: Array(repeating: 4, count: frames))
    }
}
