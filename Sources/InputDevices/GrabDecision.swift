import InputMapping

// When to take or release EVIOCGRAB: only while no key is down (input.md §6).

/// What to do about a device's grab after a frame (or when the policy changes).
///
///     wanted  grabbed  keys down   action
///     yes     no       none        grab
///     yes     no       some        wait (decide again after the next frame)
///     no      yes      any         ungrab (releasing never strands a key in other readers)
///     else                         nothing
enum GrabAction: Equatable {
    case grab, ungrab, wait, nothing

    /// Decides from the wanted mode, the current grab and libevdev's key state (EVIOCGKEY).
    static func decide(wanted: GrabMode, grabbed: Bool, keysDown: Set<UInt16>) -> GrabAction {
        switch (wanted == .exclusive, grabbed) {
        case (true, false): keysDown.isEmpty ? .grab : .wait
        case (false, true): .ungrab
        default: .nothing
        }
    }
}
