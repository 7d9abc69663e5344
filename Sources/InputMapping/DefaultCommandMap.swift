// The default command map of input.md §3, per class, as data.

/// Key and button codes → commands when no profile says otherwise.
public enum DefaultCommandMap {
    /// Keys every class maps (keyboards, remotes and the keys of any other device).
    public static let keyboard: [UInt16: String] = [
        EventCode.KEY_UP: "up", EventCode.KEY_DOWN: "down", EventCode.KEY_LEFT: "left", EventCode.KEY_RIGHT: "right",
        EventCode.KEY_TAB: "next", EventCode.KEY_NEXT: "next", EventCode.KEY_PREVIOUS: "previous",
        EventCode.KEY_ENTER: "select", EventCode.KEY_KPENTER: "select", EventCode.KEY_OK: "select",
        EventCode.KEY_SELECT: "select", EventCode.KEY_SPACE: "select",
        EventCode.KEY_ESC: "back", EventCode.KEY_BACK: "back", EventCode.KEY_BACKSPACE: "back",
        EventCode.KEY_HOMEPAGE: "home", EventCode.KEY_HOME: "home",
        EventCode.KEY_MENU: "menu", EventCode.KEY_CONTEXT_MENU: "menu", EventCode.KEY_COMPOSE: "menu",
        EventCode.KEY_SEARCH: "search", EventCode.KEY_FIND: "search",
        EventCode.KEY_PLAYPAUSE: "playPause", EventCode.KEY_PLAY: "playPause", EventCode.KEY_PAUSE: "playPause",
        EventCode.KEY_CHANNELUP: "channelUp", EventCode.KEY_CHANNELDOWN: "channelDown",
        EventCode.KEY_PAGEUP: "channelUp", EventCode.KEY_PAGEDOWN: "channelDown",
        EventCode.KEY_INFO: "info",
    ]

    /// A gamepad's buttons (kernel gamepad layout; hats and the left stick are handled as axes).
    public static let gamepadButtons: [UInt16: String] = [
        EventCode.BTN_DPAD_UP: "up", EventCode.BTN_DPAD_DOWN: "down",
        EventCode.BTN_DPAD_LEFT: "left", EventCode.BTN_DPAD_RIGHT: "right",
        EventCode.BTN_TR: "next", EventCode.BTN_TL: "previous",
        EventCode.BTN_SOUTH: "select", EventCode.BTN_EAST: "back",
        EventCode.BTN_MODE: "home", EventCode.BTN_START: "menu",
    ]

    /// A rotary encoder's push button.
    public static let rotaryButtons: [UInt16: String] = [
        EventCode.BTN_0: "select", EventCode.BTN_LEFT: "select",
    ]

    /// Keys that type: unmapped while a text or search field holds focus (focus.md §7).
    public static let typingKeys: Set<UInt16> = {
        var keys = Set(DeviceClassifier.letterKeys)
        keys.formUnion([
            EventCode.KEY_1, EventCode.KEY_2, EventCode.KEY_3, EventCode.KEY_4, EventCode.KEY_5,
            EventCode.KEY_6, EventCode.KEY_7, EventCode.KEY_8, EventCode.KEY_9, EventCode.KEY_0,
            EventCode.KEY_KP0, EventCode.KEY_KP1, EventCode.KEY_KP2, EventCode.KEY_KP3, EventCode.KEY_KP4,
            EventCode.KEY_KP5, EventCode.KEY_KP6, EventCode.KEY_KP7, EventCode.KEY_KP8, EventCode.KEY_KP9,
            EventCode.KEY_SPACE, EventCode.KEY_BACKSPACE, EventCode.KEY_DELETE, EventCode.KEY_HOME, EventCode.KEY_END,
        ])
        return keys
    }()

    /// The full default map of a class.
    public static func map(for deviceClass: DeviceClass) -> [UInt16: String] {
        switch deviceClass {
        case .gamepad: keyboard.merging(gamepadButtons) { $1 }
        case .rotary: keyboard.merging(rotaryButtons) { $1 }
        case .keyboard, .remote, .pointer, .touchpad, .other: keyboard
        }
    }
}
