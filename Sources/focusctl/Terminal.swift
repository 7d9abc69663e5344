#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The terminal `watch` draws on: its size, whether it is one, and the escape sequences for a
/// full-screen picture. The only place focusctl makes terminal system calls.
enum Terminal {
    /// The size used when standard output is not a terminal (or does not say).
    static let fallbackSize = (columns: 100, rows: 30)

    /// Whether standard output is a terminal (and so understands escape sequences).
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Standard output's window size from TIOCGWINSZ, else ``fallbackSize``.
    static func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        let result = withUnsafeMutablePointer(to: &window) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        guard result == 0, window.ws_col > 0, window.ws_row > 0 else { return fallbackSize }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Switches to the alternate screen with the cursor hidden, and arranges for SIGINT, SIGTERM
    /// and SIGHUP to switch back before exiting.
    static func enterFullScreen() {
        writeOut(enterSequence)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { _ in
                let bytes: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
                _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                _exit(0)
            }
        }
    }

    /// Leaves the alternate screen and shows the cursor again.
    static func leaveFullScreen() {
        writeOut(leaveSequence)
    }

    /// Replaces the screen's contents with `lines` (no scrolling: the last line has no newline).
    static func redraw(_ lines: [String]) {
        writeOut("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"))
    }

    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    private static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private static func writeOut(_ text: String) {
        Output.writeAll(STDOUT_FILENO, text)
    }
}
