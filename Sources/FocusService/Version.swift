/// The version focusd and focusctl report (`--version`, `GetInfo`).
public enum FocusdVersion {
    public static let string = "0.1.0"
}
