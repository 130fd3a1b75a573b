/// The release this program is: `hearth --version`, the IRC VERSION and INFO replies, `/health`
/// and the Debian package's version (scripts/package asks the binary).
public enum HearthVersion {
    public static let number = "0.9.0"
    /// As IRC servers show it (002, 004, VERSION).
    public static let ircName = "hearth-\(number)"
}
