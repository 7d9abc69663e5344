// The kernel's input event types and codes (linux/input-event-codes.h, the userspace ABI),
// as named constants and a name <-> code table so config files can say `KEY_ENTER`.
//
// Generated from the kernel header's #defines; aliases (BTN_A = BTN_SOUTH) resolve to one code.

/// The kernel's input event types and codes, named as in `linux/input-event-codes.h`.
public enum EventCode {
    public static let INPUT_PROP_POINTER: UInt16 = 0x0
    public static let INPUT_PROP_DIRECT: UInt16 = 0x1
    public static let INPUT_PROP_BUTTONPAD: UInt16 = 0x2
    public static let INPUT_PROP_SEMI_MT: UInt16 = 0x3
    public static let INPUT_PROP_TOPBUTTONPAD: UInt16 = 0x4
    public static let INPUT_PROP_POINTING_STICK: UInt16 = 0x5
    public static let INPUT_PROP_ACCELEROMETER: UInt16 = 0x6
    public static let INPUT_PROP_MAX: UInt16 = 0x1f
    public static let EV_SYN: UInt16 = 0x0
    public static let EV_KEY: UInt16 = 0x1
    public static let EV_REL: UInt16 = 0x2
    public static let EV_ABS: UInt16 = 0x3
    public static let EV_MSC: UInt16 = 0x4
    public static let EV_SW: UInt16 = 0x5
    public static let EV_LED: UInt16 = 0x11
    public static let EV_SND: UInt16 = 0x12
    public static let EV_REP: UInt16 = 0x14
    public static let EV_FF: UInt16 = 0x15
    public static let EV_PWR: UInt16 = 0x16
    public static let EV_FF_STATUS: UInt16 = 0x17
    public static let EV_MAX: UInt16 = 0x1f
    public static let EV_CNT: UInt16 = 0x20
    public static let SYN_REPORT: UInt16 = 0x0
    public static let SYN_CONFIG: UInt16 = 0x1
    public static let SYN_MT_REPORT: UInt16 = 0x2
    public static let SYN_DROPPED: UInt16 = 0x3
    public static let SYN_MAX: UInt16 = 0xf
    public static let SYN_CNT: UInt16 = 0x10
    public static let KEY_RESERVED: UInt16 = 0x0
    public static let KEY_ESC: UInt16 = 0x1
    public static let KEY_1: UInt16 = 0x2
    public static let KEY_2: UInt16 = 0x3
    public static let KEY_3: UInt16 = 0x4
    public static let KEY_4: UInt16 = 0x5
    public static let KEY_5: UInt16 = 0x6
    public static let KEY_6: UInt16 = 0x7
    public static let KEY_7: UInt16 = 0x8
    public static let KEY_8: UInt16 = 0x9
    public static let KEY_9: UInt16 = 0xa
    public static let KEY_0: UInt16 = 0xb
    public static let KEY_MINUS: UInt16 = 0xc
    public static let KEY_EQUAL: UInt16 = 0xd
    public static let KEY_BACKSPACE: UInt16 = 0xe
    public static let KEY_TAB: UInt16 = 0xf
    public static let KEY_Q: UInt16 = 0x10
    public static let KEY_W: UInt16 = 0x11
    public static let KEY_E: UInt16 = 0x12
    public static let KEY_R: UInt16 = 0x13
    public static let KEY_T: UInt16 = 0x14
    public static let KEY_Y: UInt16 = 0x15
    public static let KEY_U: UInt16 = 0x16
    public static let KEY_I: UInt16 = 0x17
    public static let KEY_O: UInt16 = 0x18
    public static let KEY_P: UInt16 = 0x19
    public static let KEY_LEFTBRACE: UInt16 = 0x1a
    public static let KEY_RIGHTBRACE: UInt16 = 0x1b
    public static let KEY_ENTER: UInt16 = 0x1c
    public static let KEY_LEFTCTRL: UInt16 = 0x1d
    public static let KEY_A: UInt16 = 0x1e
    public static let KEY_S: UInt16 = 0x1f
    public static let KEY_D: UInt16 = 0x20
    public static let KEY_F: UInt16 = 0x21
    public static let KEY_G: UInt16 = 0x22
    public static let KEY_H: UInt16 = 0x23
    public static let KEY_J: UInt16 = 0x24
    public static let KEY_K: UInt16 = 0x25
    public static let KEY_L: UInt16 = 0x26
    public static let KEY_SEMICOLON: UInt16 = 0x27
    public static let KEY_APOSTROPHE: UInt16 = 0x28
    public static let KEY_GRAVE: UInt16 = 0x29
    public static let KEY_LEFTSHIFT: UInt16 = 0x2a
    public static let KEY_BACKSLASH: UInt16 = 0x2b
    public static let KEY_Z: UInt16 = 0x2c
    public static let KEY_X: UInt16 = 0x2d
    public static let KEY_C: UInt16 = 0x2e
    public static let KEY_V: UInt16 = 0x2f
    public static let KEY_B: UInt16 = 0x30
    public static let KEY_N: UInt16 = 0x31
    public static let KEY_M: UInt16 = 0x32
    public static let KEY_COMMA: UInt16 = 0x33
    public static let KEY_DOT: UInt16 = 0x34
    public static let KEY_SLASH: UInt16 = 0x35
    public static let KEY_RIGHTSHIFT: UInt16 = 0x36
    public static let KEY_KPASTERISK: UInt16 = 0x37
    public static let KEY_LEFTALT: UInt16 = 0x38
    public static let KEY_SPACE: UInt16 = 0x39
    public static let KEY_CAPSLOCK: UInt16 = 0x3a
    public static let KEY_F1: UInt16 = 0x3b
    public static let KEY_F2: UInt16 = 0x3c
    public static let KEY_F3: UInt16 = 0x3d
    public static let KEY_F4: UInt16 = 0x3e
    public static let KEY_F5: UInt16 = 0x3f
    public static let KEY_F6: UInt16 = 0x40
    public static let KEY_F7: UInt16 = 0x41
    public static let KEY_F8: UInt16 = 0x42
    public static let KEY_F9: UInt16 = 0x43
    public static let KEY_F10: UInt16 = 0x44
    public static let KEY_NUMLOCK: UInt16 = 0x45
    public static let KEY_SCROLLLOCK: UInt16 = 0x46
    public static let KEY_KP7: UInt16 = 0x47
    public static let KEY_KP8: UInt16 = 0x48
    public static let KEY_KP9: UInt16 = 0x49
    public static let KEY_KPMINUS: UInt16 = 0x4a
    public static let KEY_KP4: UInt16 = 0x4b
    public static let KEY_KP5: UInt16 = 0x4c
    public static let KEY_KP6: UInt16 = 0x4d
    public static let KEY_KPPLUS: UInt16 = 0x4e
    public static let KEY_KP1: UInt16 = 0x4f
    public static let KEY_KP2: UInt16 = 0x50
    public static let KEY_KP3: UInt16 = 0x51
    public static let KEY_KP0: UInt16 = 0x52
    public static let KEY_KPDOT: UInt16 = 0x53
    public static let KEY_ZENKAKUHANKAKU: UInt16 = 0x55
    public static let KEY_102ND: UInt16 = 0x56
    public static let KEY_F11: UInt16 = 0x57
    public static let KEY_F12: UInt16 = 0x58
    public static let KEY_RO: UInt16 = 0x59
    public static let KEY_KATAKANA: UInt16 = 0x5a
    public static let KEY_HIRAGANA: UInt16 = 0x5b
    public static let KEY_HENKAN: UInt16 = 0x5c
    public static let KEY_KATAKANAHIRAGANA: UInt16 = 0x5d
    public static let KEY_MUHENKAN: UInt16 = 0x5e
    public static let KEY_KPJPCOMMA: UInt16 = 0x5f
    public static let KEY_KPENTER: UInt16 = 0x60
    public static let KEY_RIGHTCTRL: UInt16 = 0x61
    public static let KEY_KPSLASH: UInt16 = 0x62
    public static let KEY_SYSRQ: UInt16 = 0x63
    public static let KEY_RIGHTALT: UInt16 = 0x64
    public static let KEY_LINEFEED: UInt16 = 0x65
    public static let KEY_HOME: UInt16 = 0x66
    public static let KEY_UP: UInt16 = 0x67
    public static let KEY_PAGEUP: UInt16 = 0x68
    public static let KEY_LEFT: UInt16 = 0x69
    public static let KEY_RIGHT: UInt16 = 0x6a
    public static let KEY_END: UInt16 = 0x6b
    public static let KEY_DOWN: UInt16 = 0x6c
    public static let KEY_PAGEDOWN: UInt16 = 0x6d
    public static let KEY_INSERT: UInt16 = 0x6e
    public static let KEY_DELETE: UInt16 = 0x6f
    public static let KEY_MACRO: UInt16 = 0x70
    public static let KEY_MUTE: UInt16 = 0x71
    public static let KEY_VOLUMEDOWN: UInt16 = 0x72
    public static let KEY_VOLUMEUP: UInt16 = 0x73
    public static let KEY_POWER: UInt16 = 0x74
    public static let KEY_KPEQUAL: UInt16 = 0x75
    public static let KEY_KPPLUSMINUS: UInt16 = 0x76
    public static let KEY_PAUSE: UInt16 = 0x77
    public static let KEY_SCALE: UInt16 = 0x78
    public static let KEY_KPCOMMA: UInt16 = 0x79
    public static let KEY_HANGEUL: UInt16 = 0x7a
    public static let KEY_HANGUEL: UInt16 = 0x7a
    public static let KEY_HANJA: UInt16 = 0x7b
    public static let KEY_YEN: UInt16 = 0x7c
    public static let KEY_LEFTMETA: UInt16 = 0x7d
    public static let KEY_RIGHTMETA: UInt16 = 0x7e
    public static let KEY_COMPOSE: UInt16 = 0x7f
    public static let KEY_STOP: UInt16 = 0x80
    public static let KEY_AGAIN: UInt16 = 0x81
    public static let KEY_PROPS: UInt16 = 0x82
    public static let KEY_UNDO: UInt16 = 0x83
    public static let KEY_FRONT: UInt16 = 0x84
    public static let KEY_COPY: UInt16 = 0x85
    public static let KEY_OPEN: UInt16 = 0x86
    public static let KEY_PASTE: UInt16 = 0x87
    public static let KEY_FIND: UInt16 = 0x88
    public static let KEY_CUT: UInt16 = 0x89
    public static let KEY_HELP: UInt16 = 0x8a
    public static let KEY_MENU: UInt16 = 0x8b
    public static let KEY_CALC: UInt16 = 0x8c
    public static let KEY_SETUP: UInt16 = 0x8d
    public static let KEY_SLEEP: UInt16 = 0x8e
    public static let KEY_WAKEUP: UInt16 = 0x8f
    public static let KEY_FILE: UInt16 = 0x90
    public static let KEY_SENDFILE: UInt16 = 0x91
    public static let KEY_DELETEFILE: UInt16 = 0x92
    public static let KEY_XFER: UInt16 = 0x93
    public static let KEY_PROG1: UInt16 = 0x94
    public static let KEY_PROG2: UInt16 = 0x95
    public static let KEY_WWW: UInt16 = 0x96
    public static let KEY_MSDOS: UInt16 = 0x97
    public static let KEY_COFFEE: UInt16 = 0x98
    public static let KEY_SCREENLOCK: UInt16 = 0x98
    public static let KEY_ROTATE_DISPLAY: UInt16 = 0x99
    public static let KEY_DIRECTION: UInt16 = 0x99
    public static let KEY_CYCLEWINDOWS: UInt16 = 0x9a
    public static let KEY_MAIL: UInt16 = 0x9b
    public static let KEY_BOOKMARKS: UInt16 = 0x9c
    public static let KEY_COMPUTER: UInt16 = 0x9d
    public static let KEY_BACK: UInt16 = 0x9e
    public static let KEY_FORWARD: UInt16 = 0x9f
    public static let KEY_CLOSECD: UInt16 = 0xa0
    public static let KEY_EJECTCD: UInt16 = 0xa1
    public static let KEY_EJECTCLOSECD: UInt16 = 0xa2
    public static let KEY_NEXTSONG: UInt16 = 0xa3
    public static let KEY_PLAYPAUSE: UInt16 = 0xa4
    public static let KEY_PREVIOUSSONG: UInt16 = 0xa5
    public static let KEY_STOPCD: UInt16 = 0xa6
    public static let KEY_RECORD: UInt16 = 0xa7
    public static let KEY_REWIND: UInt16 = 0xa8
    public static let KEY_PHONE: UInt16 = 0xa9
    public static let KEY_ISO: UInt16 = 0xaa
    public static let KEY_CONFIG: UInt16 = 0xab
    public static let KEY_HOMEPAGE: UInt16 = 0xac
    public static let KEY_REFRESH: UInt16 = 0xad
    public static let KEY_EXIT: UInt16 = 0xae
    public static let KEY_MOVE: UInt16 = 0xaf
    public static let KEY_EDIT: UInt16 = 0xb0
    public static let KEY_SCROLLUP: UInt16 = 0xb1
    public static let KEY_SCROLLDOWN: UInt16 = 0xb2
    public static let KEY_KPLEFTPAREN: UInt16 = 0xb3
    public static let KEY_KPRIGHTPAREN: UInt16 = 0xb4
    public static let KEY_NEW: UInt16 = 0xb5
    public static let KEY_REDO: UInt16 = 0xb6
    public static let KEY_F13: UInt16 = 0xb7
    public static let KEY_F14: UInt16 = 0xb8
    public static let KEY_F15: UInt16 = 0xb9
    public static let KEY_F16: UInt16 = 0xba
    public static let KEY_F17: UInt16 = 0xbb
    public static let KEY_F18: UInt16 = 0xbc
    public static let KEY_F19: UInt16 = 0xbd
    public static let KEY_F20: UInt16 = 0xbe
    public static let KEY_F21: UInt16 = 0xbf
    public static let KEY_F22: UInt16 = 0xc0
    public static let KEY_F23: UInt16 = 0xc1
    public static let KEY_F24: UInt16 = 0xc2
    public static let KEY_PLAYCD: UInt16 = 0xc8
    public static let KEY_PAUSECD: UInt16 = 0xc9
    public static let KEY_PROG3: UInt16 = 0xca
    public static let KEY_PROG4: UInt16 = 0xcb
    public static let KEY_ALL_APPLICATIONS: UInt16 = 0xcc
    public static let KEY_DASHBOARD: UInt16 = 0xcc
    public static let KEY_SUSPEND: UInt16 = 0xcd
    public static let KEY_CLOSE: UInt16 = 0xce
    public static let KEY_PLAY: UInt16 = 0xcf
    public static let KEY_FASTFORWARD: UInt16 = 0xd0
    public static let KEY_BASSBOOST: UInt16 = 0xd1
    public static let KEY_PRINT: UInt16 = 0xd2
    public static let KEY_HP: UInt16 = 0xd3
    public static let KEY_CAMERA: UInt16 = 0xd4
    public static let KEY_SOUND: UInt16 = 0xd5
    public static let KEY_QUESTION: UInt16 = 0xd6
    public static let KEY_EMAIL: UInt16 = 0xd7
    public static let KEY_CHAT: UInt16 = 0xd8
    public static let KEY_SEARCH: UInt16 = 0xd9
    public static let KEY_CONNECT: UInt16 = 0xda
    public static let KEY_FINANCE: UInt16 = 0xdb
    public static let KEY_SPORT: UInt16 = 0xdc
    public static let KEY_SHOP: UInt16 = 0xdd
    public static let KEY_ALTERASE: UInt16 = 0xde
    public static let KEY_CANCEL: UInt16 = 0xdf
    public static let KEY_BRIGHTNESSDOWN: UInt16 = 0xe0
    public static let KEY_BRIGHTNESSUP: UInt16 = 0xe1
    public static let KEY_MEDIA: UInt16 = 0xe2
    public static let KEY_SWITCHVIDEOMODE: UInt16 = 0xe3
    public static let KEY_KBDILLUMTOGGLE: UInt16 = 0xe4
    public static let KEY_KBDILLUMDOWN: UInt16 = 0xe5
    public static let KEY_KBDILLUMUP: UInt16 = 0xe6
    public static let KEY_SEND: UInt16 = 0xe7
    public static let KEY_REPLY: UInt16 = 0xe8
    public static let KEY_FORWARDMAIL: UInt16 = 0xe9
    public static let KEY_SAVE: UInt16 = 0xea
    public static let KEY_DOCUMENTS: UInt16 = 0xeb
    public static let KEY_BATTERY: UInt16 = 0xec
    public static let KEY_BLUETOOTH: UInt16 = 0xed
    public static let KEY_WLAN: UInt16 = 0xee
    public static let KEY_UWB: UInt16 = 0xef
    public static let KEY_UNKNOWN: UInt16 = 0xf0
    public static let KEY_VIDEO_NEXT: UInt16 = 0xf1
    public static let KEY_VIDEO_PREV: UInt16 = 0xf2
    public static let KEY_BRIGHTNESS_CYCLE: UInt16 = 0xf3
    public static let KEY_BRIGHTNESS_AUTO: UInt16 = 0xf4
    public static let KEY_BRIGHTNESS_ZERO: UInt16 = 0xf4
    public static let KEY_DISPLAY_OFF: UInt16 = 0xf5
    public static let KEY_WWAN: UInt16 = 0xf6
    public static let KEY_WIMAX: UInt16 = 0xf6
    public static let KEY_RFKILL: UInt16 = 0xf7
    public static let KEY_MICMUTE: UInt16 = 0xf8
    public static let BTN_MISC: UInt16 = 0x100
    public static let BTN_0: UInt16 = 0x100
    public static let BTN_1: UInt16 = 0x101
    public static let BTN_2: UInt16 = 0x102
    public static let BTN_3: UInt16 = 0x103
    public static let BTN_4: UInt16 = 0x104
    public static let BTN_5: UInt16 = 0x105
    public static let BTN_6: UInt16 = 0x106
    public static let BTN_7: UInt16 = 0x107
    public static let BTN_8: UInt16 = 0x108
    public static let BTN_9: UInt16 = 0x109
    public static let BTN_MOUSE: UInt16 = 0x110
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_RIGHT: UInt16 = 0x111
    public static let BTN_MIDDLE: UInt16 = 0x112
    public static let BTN_SIDE: UInt16 = 0x113
    public static let BTN_EXTRA: UInt16 = 0x114
    public static let BTN_FORWARD: UInt16 = 0x115
    public static let BTN_BACK: UInt16 = 0x116
    public static let BTN_TASK: UInt16 = 0x117
    public static let BTN_JOYSTICK: UInt16 = 0x120
    public static let BTN_TRIGGER: UInt16 = 0x120
    public static let BTN_THUMB: UInt16 = 0x121
    public static let BTN_THUMB2: UInt16 = 0x122
    public static let BTN_TOP: UInt16 = 0x123
    public static let BTN_TOP2: UInt16 = 0x124
    public static let BTN_PINKIE: UInt16 = 0x125
    public static let BTN_BASE: UInt16 = 0x126
    public static let BTN_BASE2: UInt16 = 0x127
    public static let BTN_BASE3: UInt16 = 0x128
    public static let BTN_BASE4: UInt16 = 0x129
    public static let BTN_BASE5: UInt16 = 0x12a
    public static let BTN_BASE6: UInt16 = 0x12b
    public static let BTN_DEAD: UInt16 = 0x12f
    public static let BTN_GAMEPAD: UInt16 = 0x130
    public static let BTN_SOUTH: UInt16 = 0x130
    public static let BTN_A: UInt16 = 0x130
    public static let BTN_EAST: UInt16 = 0x131
    public static let BTN_B: UInt16 = 0x131
    public static let BTN_C: UInt16 = 0x132
    public static let BTN_NORTH: UInt16 = 0x133
    public static let BTN_X: UInt16 = 0x133
    public static let BTN_WEST: UInt16 = 0x134
    public static let BTN_Y: UInt16 = 0x134
    public static let BTN_Z: UInt16 = 0x135
    public static let BTN_TL: UInt16 = 0x136
    public static let BTN_TR: UInt16 = 0x137
    public static let BTN_TL2: UInt16 = 0x138
    public static let BTN_TR2: UInt16 = 0x139
    public static let BTN_SELECT: UInt16 = 0x13a
    public static let BTN_START: UInt16 = 0x13b
    public static let BTN_MODE: UInt16 = 0x13c
    public static let BTN_THUMBL: UInt16 = 0x13d
    public static let BTN_THUMBR: UInt16 = 0x13e
    public static let BTN_DIGI: UInt16 = 0x140
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_RUBBER: UInt16 = 0x141
    public static let BTN_TOOL_BRUSH: UInt16 = 0x142
    public static let BTN_TOOL_PENCIL: UInt16 = 0x143
    public static let BTN_TOOL_AIRBRUSH: UInt16 = 0x144
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOOL_MOUSE: UInt16 = 0x146
    public static let BTN_TOOL_LENS: UInt16 = 0x147
    public static let BTN_TOOL_QUINTTAP: UInt16 = 0x148
    public static let BTN_STYLUS3: UInt16 = 0x149
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let BTN_STYLUS2: UInt16 = 0x14c
    public static let BTN_TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let BTN_TOOL_TRIPLETAP: UInt16 = 0x14e
    public static let BTN_TOOL_QUADTAP: UInt16 = 0x14f
    public static let BTN_WHEEL: UInt16 = 0x150
    public static let BTN_GEAR_DOWN: UInt16 = 0x150
    public static let BTN_GEAR_UP: UInt16 = 0x151
    public static let KEY_OK: UInt16 = 0x160
    public static let KEY_SELECT: UInt16 = 0x161
    public static let KEY_GOTO: UInt16 = 0x162
    public static let KEY_CLEAR: UInt16 = 0x163
    public static let KEY_POWER2: UInt16 = 0x164
    public static let KEY_OPTION: UInt16 = 0x165
    public static let KEY_INFO: UInt16 = 0x166
    public static let KEY_TIME: UInt16 = 0x167
    public static let KEY_VENDOR: UInt16 = 0x168
    public static let KEY_ARCHIVE: UInt16 = 0x169
    public static let KEY_PROGRAM: UInt16 = 0x16a
    public static let KEY_CHANNEL: UInt16 = 0x16b
    public static let KEY_FAVORITES: UInt16 = 0x16c
    public static let KEY_EPG: UInt16 = 0x16d
    public static let KEY_PVR: UInt16 = 0x16e
    public static let KEY_MHP: UInt16 = 0x16f
    public static let KEY_LANGUAGE: UInt16 = 0x170
    public static let KEY_TITLE: UInt16 = 0x171
    public static let KEY_SUBTITLE: UInt16 = 0x172
    public static let KEY_ANGLE: UInt16 = 0x173
    public static let KEY_FULL_SCREEN: UInt16 = 0x174
    public static let KEY_ZOOM: UInt16 = 0x174
    public static let KEY_MODE: UInt16 = 0x175
    public static let KEY_KEYBOARD: UInt16 = 0x176
    public static let KEY_ASPECT_RATIO: UInt16 = 0x177
    public static let KEY_SCREEN: UInt16 = 0x177
    public static let KEY_PC: UInt16 = 0x178
    public static let KEY_TV: UInt16 = 0x179
    public static let KEY_TV2: UInt16 = 0x17a
    public static let KEY_VCR: UInt16 = 0x17b
    public static let KEY_VCR2: UInt16 = 0x17c
    public static let KEY_SAT: UInt16 = 0x17d
    public static let KEY_SAT2: UInt16 = 0x17e
    public static let KEY_CD: UInt16 = 0x17f
    public static let KEY_TAPE: UInt16 = 0x180
    public static let KEY_RADIO: UInt16 = 0x181
    public static let KEY_TUNER: UInt16 = 0x182
    public static let KEY_PLAYER: UInt16 = 0x183
    public static let KEY_TEXT: UInt16 = 0x184
    public static let KEY_DVD: UInt16 = 0x185
    public static let KEY_AUX: UInt16 = 0x186
    public static let KEY_MP3: UInt16 = 0x187
    public static let KEY_AUDIO: UInt16 = 0x188
    public static let KEY_VIDEO: UInt16 = 0x189
    public static let KEY_DIRECTORY: UInt16 = 0x18a
    public static let KEY_LIST: UInt16 = 0x18b
    public static let KEY_MEMO: UInt16 = 0x18c
    public static let KEY_CALENDAR: UInt16 = 0x18d
    public static let KEY_RED: UInt16 = 0x18e
    public static let KEY_GREEN: UInt16 = 0x18f
    public static let KEY_YELLOW: UInt16 = 0x190
    public static let KEY_BLUE: UInt16 = 0x191
    public static let KEY_CHANNELUP: UInt16 = 0x192
    public static let KEY_CHANNELDOWN: UInt16 = 0x193
    public static let KEY_FIRST: UInt16 = 0x194
    public static let KEY_LAST: UInt16 = 0x195
    public static let KEY_AB: UInt16 = 0x196
    public static let KEY_NEXT: UInt16 = 0x197
    public static let KEY_RESTART: UInt16 = 0x198
    public static let KEY_SLOW: UInt16 = 0x199
    public static let KEY_SHUFFLE: UInt16 = 0x19a
    public static let KEY_BREAK: UInt16 = 0x19b
    public static let KEY_PREVIOUS: UInt16 = 0x19c
    public static let KEY_DIGITS: UInt16 = 0x19d
    public static let KEY_TEEN: UInt16 = 0x19e
    public static let KEY_TWEN: UInt16 = 0x19f
    public static let KEY_VIDEOPHONE: UInt16 = 0x1a0
    public static let KEY_GAMES: UInt16 = 0x1a1
    public static let KEY_ZOOMIN: UInt16 = 0x1a2
    public static let KEY_ZOOMOUT: UInt16 = 0x1a3
    public static let KEY_ZOOMRESET: UInt16 = 0x1a4
    public static let KEY_WORDPROCESSOR: UInt16 = 0x1a5
    public static let KEY_EDITOR: UInt16 = 0x1a6
    public static let KEY_SPREADSHEET: UInt16 = 0x1a7
    public static let KEY_GRAPHICSEDITOR: UInt16 = 0x1a8
    public static let KEY_PRESENTATION: UInt16 = 0x1a9
    public static let KEY_DATABASE: UInt16 = 0x1aa
    public static let KEY_NEWS: UInt16 = 0x1ab
    public static let KEY_VOICEMAIL: UInt16 = 0x1ac
    public static let KEY_ADDRESSBOOK: UInt16 = 0x1ad
    public static let KEY_MESSENGER: UInt16 = 0x1ae
    public static let KEY_DISPLAYTOGGLE: UInt16 = 0x1af
    public static let KEY_BRIGHTNESS_TOGGLE: UInt16 = 0x1af
    public static let KEY_SPELLCHECK: UInt16 = 0x1b0
    public static let KEY_LOGOFF: UInt16 = 0x1b1
    public static let KEY_DOLLAR: UInt16 = 0x1b2
    public static let KEY_EURO: UInt16 = 0x1b3
    public static let KEY_FRAMEBACK: UInt16 = 0x1b4
    public static let KEY_FRAMEFORWARD: UInt16 = 0x1b5
    public static let KEY_CONTEXT_MENU: UInt16 = 0x1b6
    public static let KEY_MEDIA_REPEAT: UInt16 = 0x1b7
    public static let KEY_10CHANNELSUP: UInt16 = 0x1b8
    public static let KEY_10CHANNELSDOWN: UInt16 = 0x1b9
    public static let KEY_IMAGES: UInt16 = 0x1ba
    public static let KEY_NOTIFICATION_CENTER: UInt16 = 0x1bc
    public static let KEY_PICKUP_PHONE: UInt16 = 0x1bd
    public static let KEY_HANGUP_PHONE: UInt16 = 0x1be
    public static let KEY_LINK_PHONE: UInt16 = 0x1bf
    public static let KEY_DEL_EOL: UInt16 = 0x1c0
    public static let KEY_DEL_EOS: UInt16 = 0x1c1
    public static let KEY_INS_LINE: UInt16 = 0x1c2
    public static let KEY_DEL_LINE: UInt16 = 0x1c3
    public static let KEY_FN: UInt16 = 0x1d0
    public static let KEY_FN_ESC: UInt16 = 0x1d1
    public static let KEY_FN_F1: UInt16 = 0x1d2
    public static let KEY_FN_F2: UInt16 = 0x1d3
    public static let KEY_FN_F3: UInt16 = 0x1d4
    public static let KEY_FN_F4: UInt16 = 0x1d5
    public static let KEY_FN_F5: UInt16 = 0x1d6
    public static let KEY_FN_F6: UInt16 = 0x1d7
    public static let KEY_FN_F7: UInt16 = 0x1d8
    public static let KEY_FN_F8: UInt16 = 0x1d9
    public static let KEY_FN_F9: UInt16 = 0x1da
    public static let KEY_FN_F10: UInt16 = 0x1db
    public static let KEY_FN_F11: UInt16 = 0x1dc
    public static let KEY_FN_F12: UInt16 = 0x1dd
    public static let KEY_FN_1: UInt16 = 0x1de
    public static let KEY_FN_2: UInt16 = 0x1df
    public static let KEY_FN_D: UInt16 = 0x1e0
    public static let KEY_FN_E: UInt16 = 0x1e1
    public static let KEY_FN_F: UInt16 = 0x1e2
    public static let KEY_FN_S: UInt16 = 0x1e3
    public static let KEY_FN_B: UInt16 = 0x1e4
    public static let KEY_FN_RIGHT_SHIFT: UInt16 = 0x1e5
    public static let KEY_BRL_DOT1: UInt16 = 0x1f1
    public static let KEY_BRL_DOT2: UInt16 = 0x1f2
    public static let KEY_BRL_DOT3: UInt16 = 0x1f3
    public static let KEY_BRL_DOT4: UInt16 = 0x1f4
    public static let KEY_BRL_DOT5: UInt16 = 0x1f5
    public static let KEY_BRL_DOT6: UInt16 = 0x1f6
    public static let KEY_BRL_DOT7: UInt16 = 0x1f7
    public static let KEY_BRL_DOT8: UInt16 = 0x1f8
    public static let KEY_BRL_DOT9: UInt16 = 0x1f9
    public static let KEY_BRL_DOT10: UInt16 = 0x1fa
    public static let KEY_NUMERIC_0: UInt16 = 0x200
    public static let KEY_NUMERIC_1: UInt16 = 0x201
    public static let KEY_NUMERIC_2: UInt16 = 0x202
    public static let KEY_NUMERIC_3: UInt16 = 0x203
    public static let KEY_NUMERIC_4: UInt16 = 0x204
    public static let KEY_NUMERIC_5: UInt16 = 0x205
    public static let KEY_NUMERIC_6: UInt16 = 0x206
    public static let KEY_NUMERIC_7: UInt16 = 0x207
    public static let KEY_NUMERIC_8: UInt16 = 0x208
    public static let KEY_NUMERIC_9: UInt16 = 0x209
    public static let KEY_NUMERIC_STAR: UInt16 = 0x20a
    public static let KEY_NUMERIC_POUND: UInt16 = 0x20b
    public static let KEY_NUMERIC_A: UInt16 = 0x20c
    public static let KEY_NUMERIC_B: UInt16 = 0x20d
    public static let KEY_NUMERIC_C: UInt16 = 0x20e
    public static let KEY_NUMERIC_D: UInt16 = 0x20f
    public static let KEY_CAMERA_FOCUS: UInt16 = 0x210
    public static let KEY_WPS_BUTTON: UInt16 = 0x211
    public static let KEY_TOUCHPAD_TOGGLE: UInt16 = 0x212
    public static let KEY_TOUCHPAD_ON: UInt16 = 0x213
    public static let KEY_TOUCHPAD_OFF: UInt16 = 0x214
    public static let KEY_CAMERA_ZOOMIN: UInt16 = 0x215
    public static let KEY_CAMERA_ZOOMOUT: UInt16 = 0x216
    public static let KEY_CAMERA_UP: UInt16 = 0x217
    public static let KEY_CAMERA_DOWN: UInt16 = 0x218
    public static let KEY_CAMERA_LEFT: UInt16 = 0x219
    public static let KEY_CAMERA_RIGHT: UInt16 = 0x21a
    public static let KEY_ATTENDANT_ON: UInt16 = 0x21b
    public static let KEY_ATTENDANT_OFF: UInt16 = 0x21c
    public static let KEY_ATTENDANT_TOGGLE: UInt16 = 0x21d
    public static let KEY_LIGHTS_TOGGLE: UInt16 = 0x21e
    public static let BTN_DPAD_UP: UInt16 = 0x220
    public static let BTN_DPAD_DOWN: UInt16 = 0x221
    public static let BTN_DPAD_LEFT: UInt16 = 0x222
    public static let BTN_DPAD_RIGHT: UInt16 = 0x223
    public static let KEY_ALS_TOGGLE: UInt16 = 0x230
    public static let KEY_ROTATE_LOCK_TOGGLE: UInt16 = 0x231
    public static let KEY_REFRESH_RATE_TOGGLE: UInt16 = 0x232
    public static let KEY_BUTTONCONFIG: UInt16 = 0x240
    public static let KEY_TASKMANAGER: UInt16 = 0x241
    public static let KEY_JOURNAL: UInt16 = 0x242
    public static let KEY_CONTROLPANEL: UInt16 = 0x243
    public static let KEY_APPSELECT: UInt16 = 0x244
    public static let KEY_SCREENSAVER: UInt16 = 0x245
    public static let KEY_VOICECOMMAND: UInt16 = 0x246
    public static let KEY_ASSISTANT: UInt16 = 0x247
    public static let KEY_KBD_LAYOUT_NEXT: UInt16 = 0x248
    public static let KEY_EMOJI_PICKER: UInt16 = 0x249
    public static let KEY_DICTATE: UInt16 = 0x24a
    public static let KEY_BRIGHTNESS_MIN: UInt16 = 0x250
    public static let KEY_BRIGHTNESS_MAX: UInt16 = 0x251
    public static let KEY_KBDINPUTASSIST_PREV: UInt16 = 0x260
    public static let KEY_KBDINPUTASSIST_NEXT: UInt16 = 0x261
    public static let KEY_KBDINPUTASSIST_PREVGROUP: UInt16 = 0x262
    public static let KEY_KBDINPUTASSIST_NEXTGROUP: UInt16 = 0x263
    public static let KEY_KBDINPUTASSIST_ACCEPT: UInt16 = 0x264
    public static let KEY_KBDINPUTASSIST_CANCEL: UInt16 = 0x265
    public static let KEY_RIGHT_UP: UInt16 = 0x266
    public static let KEY_RIGHT_DOWN: UInt16 = 0x267
    public static let KEY_LEFT_UP: UInt16 = 0x268
    public static let KEY_LEFT_DOWN: UInt16 = 0x269
    public static let KEY_ROOT_MENU: UInt16 = 0x26a
    public static let KEY_MEDIA_TOP_MENU: UInt16 = 0x26b
    public static let KEY_NUMERIC_11: UInt16 = 0x26c
    public static let KEY_NUMERIC_12: UInt16 = 0x26d
    public static let KEY_AUDIO_DESC: UInt16 = 0x26e
    public static let KEY_3D_MODE: UInt16 = 0x26f
    public static let KEY_NEXT_FAVORITE: UInt16 = 0x270
    public static let KEY_STOP_RECORD: UInt16 = 0x271
    public static let KEY_PAUSE_RECORD: UInt16 = 0x272
    public static let KEY_VOD: UInt16 = 0x273
    public static let KEY_UNMUTE: UInt16 = 0x274
    public static let KEY_FASTREVERSE: UInt16 = 0x275
    public static let KEY_SLOWREVERSE: UInt16 = 0x276
    public static let KEY_DATA: UInt16 = 0x277
    public static let KEY_ONSCREEN_KEYBOARD: UInt16 = 0x278
    public static let KEY_PRIVACY_SCREEN_TOGGLE: UInt16 = 0x279
    public static let KEY_SELECTIVE_SCREENSHOT: UInt16 = 0x27a
    public static let KEY_NEXT_ELEMENT: UInt16 = 0x27b
    public static let KEY_PREVIOUS_ELEMENT: UInt16 = 0x27c
    public static let KEY_AUTOPILOT_ENGAGE_TOGGLE: UInt16 = 0x27d
    public static let KEY_MARK_WAYPOINT: UInt16 = 0x27e
    public static let KEY_SOS: UInt16 = 0x27f
    public static let KEY_NAV_CHART: UInt16 = 0x280
    public static let KEY_FISHING_CHART: UInt16 = 0x281
    public static let KEY_SINGLE_RANGE_RADAR: UInt16 = 0x282
    public static let KEY_DUAL_RANGE_RADAR: UInt16 = 0x283
    public static let KEY_RADAR_OVERLAY: UInt16 = 0x284
    public static let KEY_TRADITIONAL_SONAR: UInt16 = 0x285
    public static let KEY_CLEARVU_SONAR: UInt16 = 0x286
    public static let KEY_SIDEVU_SONAR: UInt16 = 0x287
    public static let KEY_NAV_INFO: UInt16 = 0x288
    public static let KEY_BRIGHTNESS_MENU: UInt16 = 0x289
    public static let KEY_MACRO1: UInt16 = 0x290
    public static let KEY_MACRO2: UInt16 = 0x291
    public static let KEY_MACRO3: UInt16 = 0x292
    public static let KEY_MACRO4: UInt16 = 0x293
    public static let KEY_MACRO5: UInt16 = 0x294
    public static let KEY_MACRO6: UInt16 = 0x295
    public static let KEY_MACRO7: UInt16 = 0x296
    public static let KEY_MACRO8: UInt16 = 0x297
    public static let KEY_MACRO9: UInt16 = 0x298
    public static let KEY_MACRO10: UInt16 = 0x299
    public static let KEY_MACRO11: UInt16 = 0x29a
    public static let KEY_MACRO12: UInt16 = 0x29b
    public static let KEY_MACRO13: UInt16 = 0x29c
    public static let KEY_MACRO14: UInt16 = 0x29d
    public static let KEY_MACRO15: UInt16 = 0x29e
    public static let KEY_MACRO16: UInt16 = 0x29f
    public static let KEY_MACRO17: UInt16 = 0x2a0
    public static let KEY_MACRO18: UInt16 = 0x2a1
    public static let KEY_MACRO19: UInt16 = 0x2a2
    public static let KEY_MACRO20: UInt16 = 0x2a3
    public static let KEY_MACRO21: UInt16 = 0x2a4
    public static let KEY_MACRO22: UInt16 = 0x2a5
    public static let KEY_MACRO23: UInt16 = 0x2a6
    public static let KEY_MACRO24: UInt16 = 0x2a7
    public static let KEY_MACRO25: UInt16 = 0x2a8
    public static let KEY_MACRO26: UInt16 = 0x2a9
    public static let KEY_MACRO27: UInt16 = 0x2aa
    public static let KEY_MACRO28: UInt16 = 0x2ab
    public static let KEY_MACRO29: UInt16 = 0x2ac
    public static let KEY_MACRO30: UInt16 = 0x2ad
    public static let KEY_MACRO_RECORD_START: UInt16 = 0x2b0
    public static let KEY_MACRO_RECORD_STOP: UInt16 = 0x2b1
    public static let KEY_MACRO_PRESET_CYCLE: UInt16 = 0x2b2
    public static let KEY_MACRO_PRESET1: UInt16 = 0x2b3
    public static let KEY_MACRO_PRESET2: UInt16 = 0x2b4
    public static let KEY_MACRO_PRESET3: UInt16 = 0x2b5
    public static let KEY_KBD_LCD_MENU1: UInt16 = 0x2b8
    public static let KEY_KBD_LCD_MENU2: UInt16 = 0x2b9
    public static let KEY_KBD_LCD_MENU3: UInt16 = 0x2ba
    public static let KEY_KBD_LCD_MENU4: UInt16 = 0x2bb
    public static let KEY_KBD_LCD_MENU5: UInt16 = 0x2bc
    public static let BTN_TRIGGER_HAPPY: UInt16 = 0x2c0
    public static let BTN_TRIGGER_HAPPY1: UInt16 = 0x2c0
    public static let BTN_TRIGGER_HAPPY2: UInt16 = 0x2c1
    public static let BTN_TRIGGER_HAPPY3: UInt16 = 0x2c2
    public static let BTN_TRIGGER_HAPPY4: UInt16 = 0x2c3
    public static let BTN_TRIGGER_HAPPY5: UInt16 = 0x2c4
    public static let BTN_TRIGGER_HAPPY6: UInt16 = 0x2c5
    public static let BTN_TRIGGER_HAPPY7: UInt16 = 0x2c6
    public static let BTN_TRIGGER_HAPPY8: UInt16 = 0x2c7
    public static let BTN_TRIGGER_HAPPY9: UInt16 = 0x2c8
    public static let BTN_TRIGGER_HAPPY10: UInt16 = 0x2c9
    public static let BTN_TRIGGER_HAPPY11: UInt16 = 0x2ca
    public static let BTN_TRIGGER_HAPPY12: UInt16 = 0x2cb
    public static let BTN_TRIGGER_HAPPY13: UInt16 = 0x2cc
    public static let BTN_TRIGGER_HAPPY14: UInt16 = 0x2cd
    public static let BTN_TRIGGER_HAPPY15: UInt16 = 0x2ce
    public static let BTN_TRIGGER_HAPPY16: UInt16 = 0x2cf
    public static let BTN_TRIGGER_HAPPY17: UInt16 = 0x2d0
    public static let BTN_TRIGGER_HAPPY18: UInt16 = 0x2d1
    public static let BTN_TRIGGER_HAPPY19: UInt16 = 0x2d2
    public static let BTN_TRIGGER_HAPPY20: UInt16 = 0x2d3
    public static let BTN_TRIGGER_HAPPY21: UInt16 = 0x2d4
    public static let BTN_TRIGGER_HAPPY22: UInt16 = 0x2d5
    public static let BTN_TRIGGER_HAPPY23: UInt16 = 0x2d6
    public static let BTN_TRIGGER_HAPPY24: UInt16 = 0x2d7
    public static let BTN_TRIGGER_HAPPY25: UInt16 = 0x2d8
    public static let BTN_TRIGGER_HAPPY26: UInt16 = 0x2d9
    public static let BTN_TRIGGER_HAPPY27: UInt16 = 0x2da
    public static let BTN_TRIGGER_HAPPY28: UInt16 = 0x2db
    public static let BTN_TRIGGER_HAPPY29: UInt16 = 0x2dc
    public static let BTN_TRIGGER_HAPPY30: UInt16 = 0x2dd
    public static let BTN_TRIGGER_HAPPY31: UInt16 = 0x2de
    public static let BTN_TRIGGER_HAPPY32: UInt16 = 0x2df
    public static let BTN_TRIGGER_HAPPY33: UInt16 = 0x2e0
    public static let BTN_TRIGGER_HAPPY34: UInt16 = 0x2e1
    public static let BTN_TRIGGER_HAPPY35: UInt16 = 0x2e2
    public static let BTN_TRIGGER_HAPPY36: UInt16 = 0x2e3
    public static let BTN_TRIGGER_HAPPY37: UInt16 = 0x2e4
    public static let BTN_TRIGGER_HAPPY38: UInt16 = 0x2e5
    public static let BTN_TRIGGER_HAPPY39: UInt16 = 0x2e6
    public static let BTN_TRIGGER_HAPPY40: UInt16 = 0x2e7
    public static let KEY_MIN_INTERESTING: UInt16 = 0x71
    public static let KEY_MAX: UInt16 = 0x2ff
    public static let KEY_CNT: UInt16 = 0x300
    public static let REL_X: UInt16 = 0x0
    public static let REL_Y: UInt16 = 0x1
    public static let REL_Z: UInt16 = 0x2
    public static let REL_RX: UInt16 = 0x3
    public static let REL_RY: UInt16 = 0x4
    public static let REL_RZ: UInt16 = 0x5
    public static let REL_HWHEEL: UInt16 = 0x6
    public static let REL_DIAL: UInt16 = 0x7
    public static let REL_WHEEL: UInt16 = 0x8
    public static let REL_MISC: UInt16 = 0x9
    public static let REL_RESERVED: UInt16 = 0xa
    public static let REL_WHEEL_HI_RES: UInt16 = 0xb
    public static let REL_HWHEEL_HI_RES: UInt16 = 0xc
    public static let REL_MAX: UInt16 = 0xf
    public static let REL_CNT: UInt16 = 0x10
    public static let ABS_X: UInt16 = 0x0
    public static let ABS_Y: UInt16 = 0x1
    public static let ABS_Z: UInt16 = 0x2
    public static let ABS_RX: UInt16 = 0x3
    public static let ABS_RY: UInt16 = 0x4
    public static let ABS_RZ: UInt16 = 0x5
    public static let ABS_THROTTLE: UInt16 = 0x6
    public static let ABS_RUDDER: UInt16 = 0x7
    public static let ABS_WHEEL: UInt16 = 0x8
    public static let ABS_GAS: UInt16 = 0x9
    public static let ABS_BRAKE: UInt16 = 0xa
    public static let ABS_HAT0X: UInt16 = 0x10
    public static let ABS_HAT0Y: UInt16 = 0x11
    public static let ABS_HAT1X: UInt16 = 0x12
    public static let ABS_HAT1Y: UInt16 = 0x13
    public static let ABS_HAT2X: UInt16 = 0x14
    public static let ABS_HAT2Y: UInt16 = 0x15
    public static let ABS_HAT3X: UInt16 = 0x16
    public static let ABS_HAT3Y: UInt16 = 0x17
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_DISTANCE: UInt16 = 0x19
    public static let ABS_TILT_X: UInt16 = 0x1a
    public static let ABS_TILT_Y: UInt16 = 0x1b
    public static let ABS_TOOL_WIDTH: UInt16 = 0x1c
    public static let ABS_VOLUME: UInt16 = 0x20
    public static let ABS_PROFILE: UInt16 = 0x21
    public static let ABS_MISC: UInt16 = 0x28
    public static let ABS_RESERVED: UInt16 = 0x2e
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_TOUCH_MINOR: UInt16 = 0x31
    public static let ABS_MT_WIDTH_MAJOR: UInt16 = 0x32
    public static let ABS_MT_WIDTH_MINOR: UInt16 = 0x33
    public static let ABS_MT_ORIENTATION: UInt16 = 0x34
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    public static let ABS_MT_BLOB_ID: UInt16 = 0x38
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_PRESSURE: UInt16 = 0x3a
    public static let ABS_MT_DISTANCE: UInt16 = 0x3b
    public static let ABS_MT_TOOL_X: UInt16 = 0x3c
    public static let ABS_MT_TOOL_Y: UInt16 = 0x3d
    public static let ABS_MAX: UInt16 = 0x3f
    public static let ABS_CNT: UInt16 = 0x40

    /// Every named code: (name, event type, code). Ranges (`*_MAX`, `*_CNT`) are left out;
    /// for a code with aliases the first name in the kernel header comes first.
    static let table: [(name: String, type: UInt16, code: UInt16)] = [
        ("INPUT_PROP_POINTER", EventCode.PROPERTY, 0x0),
        ("INPUT_PROP_DIRECT", EventCode.PROPERTY, 0x1),
        ("INPUT_PROP_BUTTONPAD", EventCode.PROPERTY, 0x2),
        ("INPUT_PROP_SEMI_MT", EventCode.PROPERTY, 0x3),
        ("INPUT_PROP_TOPBUTTONPAD", EventCode.PROPERTY, 0x4),
        ("INPUT_PROP_POINTING_STICK", EventCode.PROPERTY, 0x5),
        ("INPUT_PROP_ACCELEROMETER", EventCode.PROPERTY, 0x6),
        ("SYN_REPORT", EventCode.EV_SYN, 0x0),
        ("SYN_CONFIG", EventCode.EV_SYN, 0x1),
        ("SYN_MT_REPORT", EventCode.EV_SYN, 0x2),
        ("SYN_DROPPED", EventCode.EV_SYN, 0x3),
        ("KEY_RESERVED", EventCode.EV_KEY, 0x0),
        ("KEY_ESC", EventCode.EV_KEY, 0x1),
        ("KEY_1", EventCode.EV_KEY, 0x2),
        ("KEY_2", EventCode.EV_KEY, 0x3),
        ("KEY_3", EventCode.EV_KEY, 0x4),
        ("KEY_4", EventCode.EV_KEY, 0x5),
        ("KEY_5", EventCode.EV_KEY, 0x6),
        ("KEY_6", EventCode.EV_KEY, 0x7),
        ("KEY_7", EventCode.EV_KEY, 0x8),
        ("KEY_8", EventCode.EV_KEY, 0x9),
        ("KEY_9", EventCode.EV_KEY, 0xa),
        ("KEY_0", EventCode.EV_KEY, 0xb),
        ("KEY_MINUS", EventCode.EV_KEY, 0xc),
        ("KEY_EQUAL", EventCode.EV_KEY, 0xd),
        ("KEY_BACKSPACE", EventCode.EV_KEY, 0xe),
        ("KEY_TAB", EventCode.EV_KEY, 0xf),
        ("KEY_Q", EventCode.EV_KEY, 0x10),
        ("KEY_W", EventCode.EV_KEY, 0x11),
        ("KEY_E", EventCode.EV_KEY, 0x12),
        ("KEY_R", EventCode.EV_KEY, 0x13),
        ("KEY_T", EventCode.EV_KEY, 0x14),
        ("KEY_Y", EventCode.EV_KEY, 0x15),
        ("KEY_U", EventCode.EV_KEY, 0x16),
        ("KEY_I", EventCode.EV_KEY, 0x17),
        ("KEY_O", EventCode.EV_KEY, 0x18),
        ("KEY_P", EventCode.EV_KEY, 0x19),
        ("KEY_LEFTBRACE", EventCode.EV_KEY, 0x1a),
        ("KEY_RIGHTBRACE", EventCode.EV_KEY, 0x1b),
        ("KEY_ENTER", EventCode.EV_KEY, 0x1c),
        ("KEY_LEFTCTRL", EventCode.EV_KEY, 0x1d),
        ("KEY_A", EventCode.EV_KEY, 0x1e),
        ("KEY_S", EventCode.EV_KEY, 0x1f),
        ("KEY_D", EventCode.EV_KEY, 0x20),
        ("KEY_F", EventCode.EV_KEY, 0x21),
        ("KEY_G", EventCode.EV_KEY, 0x22),
        ("KEY_H", EventCode.EV_KEY, 0x23),
        ("KEY_J", EventCode.EV_KEY, 0x24),
        ("KEY_K", EventCode.EV_KEY, 0x25),
        ("KEY_L", EventCode.EV_KEY, 0x26),
        ("KEY_SEMICOLON", EventCode.EV_KEY, 0x27),
        ("KEY_APOSTROPHE", EventCode.EV_KEY, 0x28),
        ("KEY_GRAVE", EventCode.EV_KEY, 0x29),
        ("KEY_LEFTSHIFT", EventCode.EV_KEY, 0x2a),
        ("KEY_BACKSLASH", EventCode.EV_KEY, 0x2b),
        ("KEY_Z", EventCode.EV_KEY, 0x2c),
        ("KEY_X", EventCode.EV_KEY, 0x2d),
        ("KEY_C", EventCode.EV_KEY, 0x2e),
        ("KEY_V", EventCode.EV_KEY, 0x2f),
        ("KEY_B", EventCode.EV_KEY, 0x30),
        ("KEY_N", EventCode.EV_KEY, 0x31),
        ("KEY_M", EventCode.EV_KEY, 0x32),
        ("KEY_COMMA", EventCode.EV_KEY, 0x33),
        ("KEY_DOT", EventCode.EV_KEY, 0x34),
        ("KEY_SLASH", EventCode.EV_KEY, 0x35),
        ("KEY_RIGHTSHIFT", EventCode.EV_KEY, 0x36),
        ("KEY_KPASTERISK", EventCode.EV_KEY, 0x37),
        ("KEY_LEFTALT", EventCode.EV_KEY, 0x38),
        ("KEY_SPACE", EventCode.EV_KEY, 0x39),
        ("KEY_CAPSLOCK", EventCode.EV_KEY, 0x3a),
        ("KEY_F1", EventCode.EV_KEY, 0x3b),
        ("KEY_F2", EventCode.EV_KEY, 0x3c),
        ("KEY_F3", EventCode.EV_KEY, 0x3d),
        ("KEY_F4", EventCode.EV_KEY, 0x3e),
        ("KEY_F5", EventCode.EV_KEY, 0x3f),
        ("KEY_F6", EventCode.EV_KEY, 0x40),
        ("KEY_F7", EventCode.EV_KEY, 0x41),
        ("KEY_F8", EventCode.EV_KEY, 0x42),
        ("KEY_F9", EventCode.EV_KEY, 0x43),
        ("KEY_F10", EventCode.EV_KEY, 0x44),
        ("KEY_NUMLOCK", EventCode.EV_KEY, 0x45),
        ("KEY_SCROLLLOCK", EventCode.EV_KEY, 0x46),
        ("KEY_KP7", EventCode.EV_KEY, 0x47),
        ("KEY_KP8", EventCode.EV_KEY, 0x48),
        ("KEY_KP9", EventCode.EV_KEY, 0x49),
        ("KEY_KPMINUS", EventCode.EV_KEY, 0x4a),
        ("KEY_KP4", EventCode.EV_KEY, 0x4b),
        ("KEY_KP5", EventCode.EV_KEY, 0x4c),
        ("KEY_KP6", EventCode.EV_KEY, 0x4d),
        ("KEY_KPPLUS", EventCode.EV_KEY, 0x4e),
        ("KEY_KP1", EventCode.EV_KEY, 0x4f),
        ("KEY_KP2", EventCode.EV_KEY, 0x50),
        ("KEY_KP3", EventCode.EV_KEY, 0x51),
        ("KEY_KP0", EventCode.EV_KEY, 0x52),
        ("KEY_KPDOT", EventCode.EV_KEY, 0x53),
        ("KEY_ZENKAKUHANKAKU", EventCode.EV_KEY, 0x55),
        ("KEY_102ND", EventCode.EV_KEY, 0x56),
        ("KEY_F11", EventCode.EV_KEY, 0x57),
        ("KEY_F12", EventCode.EV_KEY, 0x58),
        ("KEY_RO", EventCode.EV_KEY, 0x59),
        ("KEY_KATAKANA", EventCode.EV_KEY, 0x5a),
        ("KEY_HIRAGANA", EventCode.EV_KEY, 0x5b),
        ("KEY_HENKAN", EventCode.EV_KEY, 0x5c),
        ("KEY_KATAKANAHIRAGANA", EventCode.EV_KEY, 0x5d),
        ("KEY_MUHENKAN", EventCode.EV_KEY, 0x5e),
        ("KEY_KPJPCOMMA", EventCode.EV_KEY, 0x5f),
        ("KEY_KPENTER", EventCode.EV_KEY, 0x60),
        ("KEY_RIGHTCTRL", EventCode.EV_KEY, 0x61),
        ("KEY_KPSLASH", EventCode.EV_KEY, 0x62),
        ("KEY_SYSRQ", EventCode.EV_KEY, 0x63),
        ("KEY_RIGHTALT", EventCode.EV_KEY, 0x64),
        ("KEY_LINEFEED", EventCode.EV_KEY, 0x65),
        ("KEY_HOME", EventCode.EV_KEY, 0x66),
        ("KEY_UP", EventCode.EV_KEY, 0x67),
        ("KEY_PAGEUP", EventCode.EV_KEY, 0x68),
        ("KEY_LEFT", EventCode.EV_KEY, 0x69),
        ("KEY_RIGHT", EventCode.EV_KEY, 0x6a),
        ("KEY_END", EventCode.EV_KEY, 0x6b),
        ("KEY_DOWN", EventCode.EV_KEY, 0x6c),
        ("KEY_PAGEDOWN", EventCode.EV_KEY, 0x6d),
        ("KEY_INSERT", EventCode.EV_KEY, 0x6e),
        ("KEY_DELETE", EventCode.EV_KEY, 0x6f),
        ("KEY_MACRO", EventCode.EV_KEY, 0x70),
        ("KEY_MUTE", EventCode.EV_KEY, 0x71),
        ("KEY_VOLUMEDOWN", EventCode.EV_KEY, 0x72),
        ("KEY_VOLUMEUP", EventCode.EV_KEY, 0x73),
        ("KEY_POWER", EventCode.EV_KEY, 0x74),
        ("KEY_KPEQUAL", EventCode.EV_KEY, 0x75),
        ("KEY_KPPLUSMINUS", EventCode.EV_KEY, 0x76),
        ("KEY_PAUSE", EventCode.EV_KEY, 0x77),
        ("KEY_SCALE", EventCode.EV_KEY, 0x78),
        ("KEY_KPCOMMA", EventCode.EV_KEY, 0x79),
        ("KEY_HANGEUL", EventCode.EV_KEY, 0x7a),
        ("KEY_HANGUEL", EventCode.EV_KEY, 0x7a),
        ("KEY_HANJA", EventCode.EV_KEY, 0x7b),
        ("KEY_YEN", EventCode.EV_KEY, 0x7c),
        ("KEY_LEFTMETA", EventCode.EV_KEY, 0x7d),
        ("KEY_RIGHTMETA", EventCode.EV_KEY, 0x7e),
        ("KEY_COMPOSE", EventCode.EV_KEY, 0x7f),
        ("KEY_STOP", EventCode.EV_KEY, 0x80),
        ("KEY_AGAIN", EventCode.EV_KEY, 0x81),
        ("KEY_PROPS", EventCode.EV_KEY, 0x82),
        ("KEY_UNDO", EventCode.EV_KEY, 0x83),
        ("KEY_FRONT", EventCode.EV_KEY, 0x84),
        ("KEY_COPY", EventCode.EV_KEY, 0x85),
        ("KEY_OPEN", EventCode.EV_KEY, 0x86),
        ("KEY_PASTE", EventCode.EV_KEY, 0x87),
        ("KEY_FIND", EventCode.EV_KEY, 0x88),
        ("KEY_CUT", EventCode.EV_KEY, 0x89),
        ("KEY_HELP", EventCode.EV_KEY, 0x8a),
        ("KEY_MENU", EventCode.EV_KEY, 0x8b),
        ("KEY_CALC", EventCode.EV_KEY, 0x8c),
        ("KEY_SETUP", EventCode.EV_KEY, 0x8d),
        ("KEY_SLEEP", EventCode.EV_KEY, 0x8e),
        ("KEY_WAKEUP", EventCode.EV_KEY, 0x8f),
        ("KEY_FILE", EventCode.EV_KEY, 0x90),
        ("KEY_SENDFILE", EventCode.EV_KEY, 0x91),
        ("KEY_DELETEFILE", EventCode.EV_KEY, 0x92),
        ("KEY_XFER", EventCode.EV_KEY, 0x93),
        ("KEY_PROG1", EventCode.EV_KEY, 0x94),
        ("KEY_PROG2", EventCode.EV_KEY, 0x95),
        ("KEY_WWW", EventCode.EV_KEY, 0x96),
        ("KEY_MSDOS", EventCode.EV_KEY, 0x97),
        ("KEY_COFFEE", EventCode.EV_KEY, 0x98),
        ("KEY_SCREENLOCK", EventCode.EV_KEY, 0x98),
        ("KEY_ROTATE_DISPLAY", EventCode.EV_KEY, 0x99),
        ("KEY_DIRECTION", EventCode.EV_KEY, 0x99),
        ("KEY_CYCLEWINDOWS", EventCode.EV_KEY, 0x9a),
        ("KEY_MAIL", EventCode.EV_KEY, 0x9b),
        ("KEY_BOOKMARKS", EventCode.EV_KEY, 0x9c),
        ("KEY_COMPUTER", EventCode.EV_KEY, 0x9d),
        ("KEY_BACK", EventCode.EV_KEY, 0x9e),
        ("KEY_FORWARD", EventCode.EV_KEY, 0x9f),
        ("KEY_CLOSECD", EventCode.EV_KEY, 0xa0),
        ("KEY_EJECTCD", EventCode.EV_KEY, 0xa1),
        ("KEY_EJECTCLOSECD", EventCode.EV_KEY, 0xa2),
        ("KEY_NEXTSONG", EventCode.EV_KEY, 0xa3),
        ("KEY_PLAYPAUSE", EventCode.EV_KEY, 0xa4),
        ("KEY_PREVIOUSSONG", EventCode.EV_KEY, 0xa5),
        ("KEY_STOPCD", EventCode.EV_KEY, 0xa6),
        ("KEY_RECORD", EventCode.EV_KEY, 0xa7),
        ("KEY_REWIND", EventCode.EV_KEY, 0xa8),
        ("KEY_PHONE", EventCode.EV_KEY, 0xa9),
        ("KEY_ISO", EventCode.EV_KEY, 0xaa),
        ("KEY_CONFIG", EventCode.EV_KEY, 0xab),
        ("KEY_HOMEPAGE", EventCode.EV_KEY, 0xac),
        ("KEY_REFRESH", EventCode.EV_KEY, 0xad),
        ("KEY_EXIT", EventCode.EV_KEY, 0xae),
        ("KEY_MOVE", EventCode.EV_KEY, 0xaf),
        ("KEY_EDIT", EventCode.EV_KEY, 0xb0),
        ("KEY_SCROLLUP", EventCode.EV_KEY, 0xb1),
        ("KEY_SCROLLDOWN", EventCode.EV_KEY, 0xb2),
        ("KEY_KPLEFTPAREN", EventCode.EV_KEY, 0xb3),
        ("KEY_KPRIGHTPAREN", EventCode.EV_KEY, 0xb4),
        ("KEY_NEW", EventCode.EV_KEY, 0xb5),
        ("KEY_REDO", EventCode.EV_KEY, 0xb6),
        ("KEY_F13", EventCode.EV_KEY, 0xb7),
        ("KEY_F14", EventCode.EV_KEY, 0xb8),
        ("KEY_F15", EventCode.EV_KEY, 0xb9),
        ("KEY_F16", EventCode.EV_KEY, 0xba),
        ("KEY_F17", EventCode.EV_KEY, 0xbb),
        ("KEY_F18", EventCode.EV_KEY, 0xbc),
        ("KEY_F19", EventCode.EV_KEY, 0xbd),
        ("KEY_F20", EventCode.EV_KEY, 0xbe),
        ("KEY_F21", EventCode.EV_KEY, 0xbf),
        ("KEY_F22", EventCode.EV_KEY, 0xc0),
        ("KEY_F23", EventCode.EV_KEY, 0xc1),
        ("KEY_F24", EventCode.EV_KEY, 0xc2),
        ("KEY_PLAYCD", EventCode.EV_KEY, 0xc8),
        ("KEY_PAUSECD", EventCode.EV_KEY, 0xc9),
        ("KEY_PROG3", EventCode.EV_KEY, 0xca),
        ("KEY_PROG4", EventCode.EV_KEY, 0xcb),
        ("KEY_ALL_APPLICATIONS", EventCode.EV_KEY, 0xcc),
        ("KEY_DASHBOARD", EventCode.EV_KEY, 0xcc),
        ("KEY_SUSPEND", EventCode.EV_KEY, 0xcd),
        ("KEY_CLOSE", EventCode.EV_KEY, 0xce),
        ("KEY_PLAY", EventCode.EV_KEY, 0xcf),
        ("KEY_FASTFORWARD", EventCode.EV_KEY, 0xd0),
        ("KEY_BASSBOOST", EventCode.EV_KEY, 0xd1),
        ("KEY_PRINT", EventCode.EV_KEY, 0xd2),
        ("KEY_HP", EventCode.EV_KEY, 0xd3),
        ("KEY_CAMERA", EventCode.EV_KEY, 0xd4),
        ("KEY_SOUND", EventCode.EV_KEY, 0xd5),
        ("KEY_QUESTION", EventCode.EV_KEY, 0xd6),
        ("KEY_EMAIL", EventCode.EV_KEY, 0xd7),
        ("KEY_CHAT", EventCode.EV_KEY, 0xd8),
        ("KEY_SEARCH", EventCode.EV_KEY, 0xd9),
        ("KEY_CONNECT", EventCode.EV_KEY, 0xda),
        ("KEY_FINANCE", EventCode.EV_KEY, 0xdb),
        ("KEY_SPORT", EventCode.EV_KEY, 0xdc),
        ("KEY_SHOP", EventCode.EV_KEY, 0xdd),
        ("KEY_ALTERASE", EventCode.EV_KEY, 0xde),
        ("KEY_CANCEL", EventCode.EV_KEY, 0xdf),
        ("KEY_BRIGHTNESSDOWN", EventCode.EV_KEY, 0xe0),
        ("KEY_BRIGHTNESSUP", EventCode.EV_KEY, 0xe1),
        ("KEY_MEDIA", EventCode.EV_KEY, 0xe2),
        ("KEY_SWITCHVIDEOMODE", EventCode.EV_KEY, 0xe3),
        ("KEY_KBDILLUMTOGGLE", EventCode.EV_KEY, 0xe4),
        ("KEY_KBDILLUMDOWN", EventCode.EV_KEY, 0xe5),
        ("KEY_KBDILLUMUP", EventCode.EV_KEY, 0xe6),
        ("KEY_SEND", EventCode.EV_KEY, 0xe7),
        ("KEY_REPLY", EventCode.EV_KEY, 0xe8),
        ("KEY_FORWARDMAIL", EventCode.EV_KEY, 0xe9),
        ("KEY_SAVE", EventCode.EV_KEY, 0xea),
        ("KEY_DOCUMENTS", EventCode.EV_KEY, 0xeb),
        ("KEY_BATTERY", EventCode.EV_KEY, 0xec),
        ("KEY_BLUETOOTH", EventCode.EV_KEY, 0xed),
        ("KEY_WLAN", EventCode.EV_KEY, 0xee),
        ("KEY_UWB", EventCode.EV_KEY, 0xef),
        ("KEY_UNKNOWN", EventCode.EV_KEY, 0xf0),
        ("KEY_VIDEO_NEXT", EventCode.EV_KEY, 0xf1),
        ("KEY_VIDEO_PREV", EventCode.EV_KEY, 0xf2),
        ("KEY_BRIGHTNESS_CYCLE", EventCode.EV_KEY, 0xf3),
        ("KEY_BRIGHTNESS_AUTO", EventCode.EV_KEY, 0xf4),
        ("KEY_BRIGHTNESS_ZERO", EventCode.EV_KEY, 0xf4),
        ("KEY_DISPLAY_OFF", EventCode.EV_KEY, 0xf5),
        ("KEY_WWAN", EventCode.EV_KEY, 0xf6),
        ("KEY_WIMAX", EventCode.EV_KEY, 0xf6),
        ("KEY_RFKILL", EventCode.EV_KEY, 0xf7),
        ("KEY_MICMUTE", EventCode.EV_KEY, 0xf8),
        ("BTN_0", EventCode.EV_KEY, 0x100),
        ("BTN_1", EventCode.EV_KEY, 0x101),
        ("BTN_2", EventCode.EV_KEY, 0x102),
        ("BTN_3", EventCode.EV_KEY, 0x103),
        ("BTN_4", EventCode.EV_KEY, 0x104),
        ("BTN_5", EventCode.EV_KEY, 0x105),
        ("BTN_6", EventCode.EV_KEY, 0x106),
        ("BTN_7", EventCode.EV_KEY, 0x107),
        ("BTN_8", EventCode.EV_KEY, 0x108),
        ("BTN_9", EventCode.EV_KEY, 0x109),
        ("BTN_LEFT", EventCode.EV_KEY, 0x110),
        ("BTN_RIGHT", EventCode.EV_KEY, 0x111),
        ("BTN_MIDDLE", EventCode.EV_KEY, 0x112),
        ("BTN_SIDE", EventCode.EV_KEY, 0x113),
        ("BTN_EXTRA", EventCode.EV_KEY, 0x114),
        ("BTN_FORWARD", EventCode.EV_KEY, 0x115),
        ("BTN_BACK", EventCode.EV_KEY, 0x116),
        ("BTN_TASK", EventCode.EV_KEY, 0x117),
        ("BTN_TRIGGER", EventCode.EV_KEY, 0x120),
        ("BTN_THUMB", EventCode.EV_KEY, 0x121),
        ("BTN_THUMB2", EventCode.EV_KEY, 0x122),
        ("BTN_TOP", EventCode.EV_KEY, 0x123),
        ("BTN_TOP2", EventCode.EV_KEY, 0x124),
        ("BTN_PINKIE", EventCode.EV_KEY, 0x125),
        ("BTN_BASE", EventCode.EV_KEY, 0x126),
        ("BTN_BASE2", EventCode.EV_KEY, 0x127),
        ("BTN_BASE3", EventCode.EV_KEY, 0x128),
        ("BTN_BASE4", EventCode.EV_KEY, 0x129),
        ("BTN_BASE5", EventCode.EV_KEY, 0x12a),
        ("BTN_BASE6", EventCode.EV_KEY, 0x12b),
        ("BTN_DEAD", EventCode.EV_KEY, 0x12f),
        ("BTN_SOUTH", EventCode.EV_KEY, 0x130),
        ("BTN_A", EventCode.EV_KEY, 0x130),
        ("BTN_EAST", EventCode.EV_KEY, 0x131),
        ("BTN_B", EventCode.EV_KEY, 0x131),
        ("BTN_C", EventCode.EV_KEY, 0x132),
        ("BTN_NORTH", EventCode.EV_KEY, 0x133),
        ("BTN_X", EventCode.EV_KEY, 0x133),
        ("BTN_WEST", EventCode.EV_KEY, 0x134),
        ("BTN_Y", EventCode.EV_KEY, 0x134),
        ("BTN_Z", EventCode.EV_KEY, 0x135),
        ("BTN_TL", EventCode.EV_KEY, 0x136),
        ("BTN_TR", EventCode.EV_KEY, 0x137),
        ("BTN_TL2", EventCode.EV_KEY, 0x138),
        ("BTN_TR2", EventCode.EV_KEY, 0x139),
        ("BTN_SELECT", EventCode.EV_KEY, 0x13a),
        ("BTN_START", EventCode.EV_KEY, 0x13b),
        ("BTN_MODE", EventCode.EV_KEY, 0x13c),
        ("BTN_THUMBL", EventCode.EV_KEY, 0x13d),
        ("BTN_THUMBR", EventCode.EV_KEY, 0x13e),
        ("BTN_TOOL_PEN", EventCode.EV_KEY, 0x140),
        ("BTN_TOOL_RUBBER", EventCode.EV_KEY, 0x141),
        ("BTN_TOOL_BRUSH", EventCode.EV_KEY, 0x142),
        ("BTN_TOOL_PENCIL", EventCode.EV_KEY, 0x143),
        ("BTN_TOOL_AIRBRUSH", EventCode.EV_KEY, 0x144),
        ("BTN_TOOL_FINGER", EventCode.EV_KEY, 0x145),
        ("BTN_TOOL_MOUSE", EventCode.EV_KEY, 0x146),
        ("BTN_TOOL_LENS", EventCode.EV_KEY, 0x147),
        ("BTN_TOOL_QUINTTAP", EventCode.EV_KEY, 0x148),
        ("BTN_STYLUS3", EventCode.EV_KEY, 0x149),
        ("BTN_TOUCH", EventCode.EV_KEY, 0x14a),
        ("BTN_STYLUS", EventCode.EV_KEY, 0x14b),
        ("BTN_STYLUS2", EventCode.EV_KEY, 0x14c),
        ("BTN_TOOL_DOUBLETAP", EventCode.EV_KEY, 0x14d),
        ("BTN_TOOL_TRIPLETAP", EventCode.EV_KEY, 0x14e),
        ("BTN_TOOL_QUADTAP", EventCode.EV_KEY, 0x14f),
        ("BTN_GEAR_DOWN", EventCode.EV_KEY, 0x150),
        ("BTN_GEAR_UP", EventCode.EV_KEY, 0x151),
        ("KEY_OK", EventCode.EV_KEY, 0x160),
        ("KEY_SELECT", EventCode.EV_KEY, 0x161),
        ("KEY_GOTO", EventCode.EV_KEY, 0x162),
        ("KEY_CLEAR", EventCode.EV_KEY, 0x163),
        ("KEY_POWER2", EventCode.EV_KEY, 0x164),
        ("KEY_OPTION", EventCode.EV_KEY, 0x165),
        ("KEY_INFO", EventCode.EV_KEY, 0x166),
        ("KEY_TIME", EventCode.EV_KEY, 0x167),
        ("KEY_VENDOR", EventCode.EV_KEY, 0x168),
        ("KEY_ARCHIVE", EventCode.EV_KEY, 0x169),
        ("KEY_PROGRAM", EventCode.EV_KEY, 0x16a),
        ("KEY_CHANNEL", EventCode.EV_KEY, 0x16b),
        ("KEY_FAVORITES", EventCode.EV_KEY, 0x16c),
        ("KEY_EPG", EventCode.EV_KEY, 0x16d),
        ("KEY_PVR", EventCode.EV_KEY, 0x16e),
        ("KEY_MHP", EventCode.EV_KEY, 0x16f),
        ("KEY_LANGUAGE", EventCode.EV_KEY, 0x170),
        ("KEY_TITLE", EventCode.EV_KEY, 0x171),
        ("KEY_SUBTITLE", EventCode.EV_KEY, 0x172),
        ("KEY_ANGLE", EventCode.EV_KEY, 0x173),
        ("KEY_FULL_SCREEN", EventCode.EV_KEY, 0x174),
        ("KEY_ZOOM", EventCode.EV_KEY, 0x174),
        ("KEY_MODE", EventCode.EV_KEY, 0x175),
        ("KEY_KEYBOARD", EventCode.EV_KEY, 0x176),
        ("KEY_ASPECT_RATIO", EventCode.EV_KEY, 0x177),
        ("KEY_SCREEN", EventCode.EV_KEY, 0x177),
        ("KEY_PC", EventCode.EV_KEY, 0x178),
        ("KEY_TV", EventCode.EV_KEY, 0x179),
        ("KEY_TV2", EventCode.EV_KEY, 0x17a),
        ("KEY_VCR", EventCode.EV_KEY, 0x17b),
        ("KEY_VCR2", EventCode.EV_KEY, 0x17c),
        ("KEY_SAT", EventCode.EV_KEY, 0x17d),
        ("KEY_SAT2", EventCode.EV_KEY, 0x17e),
        ("KEY_CD", EventCode.EV_KEY, 0x17f),
        ("KEY_TAPE", EventCode.EV_KEY, 0x180),
        ("KEY_RADIO", EventCode.EV_KEY, 0x181),
        ("KEY_TUNER", EventCode.EV_KEY, 0x182),
        ("KEY_PLAYER", EventCode.EV_KEY, 0x183),
        ("KEY_TEXT", EventCode.EV_KEY, 0x184),
        ("KEY_DVD", EventCode.EV_KEY, 0x185),
        ("KEY_AUX", EventCode.EV_KEY, 0x186),
        ("KEY_MP3", EventCode.EV_KEY, 0x187),
        ("KEY_AUDIO", EventCode.EV_KEY, 0x188),
        ("KEY_VIDEO", EventCode.EV_KEY, 0x189),
        ("KEY_DIRECTORY", EventCode.EV_KEY, 0x18a),
        ("KEY_LIST", EventCode.EV_KEY, 0x18b),
        ("KEY_MEMO", EventCode.EV_KEY, 0x18c),
        ("KEY_CALENDAR", EventCode.EV_KEY, 0x18d),
        ("KEY_RED", EventCode.EV_KEY, 0x18e),
        ("KEY_GREEN", EventCode.EV_KEY, 0x18f),
        ("KEY_YELLOW", EventCode.EV_KEY, 0x190),
        ("KEY_BLUE", EventCode.EV_KEY, 0x191),
        ("KEY_CHANNELUP", EventCode.EV_KEY, 0x192),
        ("KEY_CHANNELDOWN", EventCode.EV_KEY, 0x193),
        ("KEY_FIRST", EventCode.EV_KEY, 0x194),
        ("KEY_LAST", EventCode.EV_KEY, 0x195),
        ("KEY_AB", EventCode.EV_KEY, 0x196),
        ("KEY_NEXT", EventCode.EV_KEY, 0x197),
        ("KEY_RESTART", EventCode.EV_KEY, 0x198),
        ("KEY_SLOW", EventCode.EV_KEY, 0x199),
        ("KEY_SHUFFLE", EventCode.EV_KEY, 0x19a),
        ("KEY_BREAK", EventCode.EV_KEY, 0x19b),
        ("KEY_PREVIOUS", EventCode.EV_KEY, 0x19c),
        ("KEY_DIGITS", EventCode.EV_KEY, 0x19d),
        ("KEY_TEEN", EventCode.EV_KEY, 0x19e),
        ("KEY_TWEN", EventCode.EV_KEY, 0x19f),
        ("KEY_VIDEOPHONE", EventCode.EV_KEY, 0x1a0),
        ("KEY_GAMES", EventCode.EV_KEY, 0x1a1),
        ("KEY_ZOOMIN", EventCode.EV_KEY, 0x1a2),
        ("KEY_ZOOMOUT", EventCode.EV_KEY, 0x1a3),
        ("KEY_ZOOMRESET", EventCode.EV_KEY, 0x1a4),
        ("KEY_WORDPROCESSOR", EventCode.EV_KEY, 0x1a5),
        ("KEY_EDITOR", EventCode.EV_KEY, 0x1a6),
        ("KEY_SPREADSHEET", EventCode.EV_KEY, 0x1a7),
        ("KEY_GRAPHICSEDITOR", EventCode.EV_KEY, 0x1a8),
        ("KEY_PRESENTATION", EventCode.EV_KEY, 0x1a9),
        ("KEY_DATABASE", EventCode.EV_KEY, 0x1aa),
        ("KEY_NEWS", EventCode.EV_KEY, 0x1ab),
        ("KEY_VOICEMAIL", EventCode.EV_KEY, 0x1ac),
        ("KEY_ADDRESSBOOK", EventCode.EV_KEY, 0x1ad),
        ("KEY_MESSENGER", EventCode.EV_KEY, 0x1ae),
        ("KEY_DISPLAYTOGGLE", EventCode.EV_KEY, 0x1af),
        ("KEY_BRIGHTNESS_TOGGLE", EventCode.EV_KEY, 0x1af),
        ("KEY_SPELLCHECK", EventCode.EV_KEY, 0x1b0),
        ("KEY_LOGOFF", EventCode.EV_KEY, 0x1b1),
        ("KEY_DOLLAR", EventCode.EV_KEY, 0x1b2),
        ("KEY_EURO", EventCode.EV_KEY, 0x1b3),
        ("KEY_FRAMEBACK", EventCode.EV_KEY, 0x1b4),
        ("KEY_FRAMEFORWARD", EventCode.EV_KEY, 0x1b5),
        ("KEY_CONTEXT_MENU", EventCode.EV_KEY, 0x1b6),
        ("KEY_MEDIA_REPEAT", EventCode.EV_KEY, 0x1b7),
        ("KEY_10CHANNELSUP", EventCode.EV_KEY, 0x1b8),
        ("KEY_10CHANNELSDOWN", EventCode.EV_KEY, 0x1b9),
        ("KEY_IMAGES", EventCode.EV_KEY, 0x1ba),
        ("KEY_NOTIFICATION_CENTER", EventCode.EV_KEY, 0x1bc),
        ("KEY_PICKUP_PHONE", EventCode.EV_KEY, 0x1bd),
        ("KEY_HANGUP_PHONE", EventCode.EV_KEY, 0x1be),
        ("KEY_LINK_PHONE", EventCode.EV_KEY, 0x1bf),
        ("KEY_DEL_EOL", EventCode.EV_KEY, 0x1c0),
        ("KEY_DEL_EOS", EventCode.EV_KEY, 0x1c1),
        ("KEY_INS_LINE", EventCode.EV_KEY, 0x1c2),
        ("KEY_DEL_LINE", EventCode.EV_KEY, 0x1c3),
        ("KEY_FN", EventCode.EV_KEY, 0x1d0),
        ("KEY_FN_ESC", EventCode.EV_KEY, 0x1d1),
        ("KEY_FN_F1", EventCode.EV_KEY, 0x1d2),
        ("KEY_FN_F2", EventCode.EV_KEY, 0x1d3),
        ("KEY_FN_F3", EventCode.EV_KEY, 0x1d4),
        ("KEY_FN_F4", EventCode.EV_KEY, 0x1d5),
        ("KEY_FN_F5", EventCode.EV_KEY, 0x1d6),
        ("KEY_FN_F6", EventCode.EV_KEY, 0x1d7),
        ("KEY_FN_F7", EventCode.EV_KEY, 0x1d8),
        ("KEY_FN_F8", EventCode.EV_KEY, 0x1d9),
        ("KEY_FN_F9", EventCode.EV_KEY, 0x1da),
        ("KEY_FN_F10", EventCode.EV_KEY, 0x1db),
        ("KEY_FN_F11", EventCode.EV_KEY, 0x1dc),
        ("KEY_FN_F12", EventCode.EV_KEY, 0x1dd),
        ("KEY_FN_1", EventCode.EV_KEY, 0x1de),
        ("KEY_FN_2", EventCode.EV_KEY, 0x1df),
        ("KEY_FN_D", EventCode.EV_KEY, 0x1e0),
        ("KEY_FN_E", EventCode.EV_KEY, 0x1e1),
        ("KEY_FN_F", EventCode.EV_KEY, 0x1e2),
        ("KEY_FN_S", EventCode.EV_KEY, 0x1e3),
        ("KEY_FN_B", EventCode.EV_KEY, 0x1e4),
        ("KEY_FN_RIGHT_SHIFT", EventCode.EV_KEY, 0x1e5),
        ("KEY_BRL_DOT1", EventCode.EV_KEY, 0x1f1),
        ("KEY_BRL_DOT2", EventCode.EV_KEY, 0x1f2),
        ("KEY_BRL_DOT3", EventCode.EV_KEY, 0x1f3),
        ("KEY_BRL_DOT4", EventCode.EV_KEY, 0x1f4),
        ("KEY_BRL_DOT5", EventCode.EV_KEY, 0x1f5),
        ("KEY_BRL_DOT6", EventCode.EV_KEY, 0x1f6),
        ("KEY_BRL_DOT7", EventCode.EV_KEY, 0x1f7),
        ("KEY_BRL_DOT8", EventCode.EV_KEY, 0x1f8),
        ("KEY_BRL_DOT9", EventCode.EV_KEY, 0x1f9),
        ("KEY_BRL_DOT10", EventCode.EV_KEY, 0x1fa),
        ("KEY_NUMERIC_0", EventCode.EV_KEY, 0x200),
        ("KEY_NUMERIC_1", EventCode.EV_KEY, 0x201),
        ("KEY_NUMERIC_2", EventCode.EV_KEY, 0x202),
        ("KEY_NUMERIC_3", EventCode.EV_KEY, 0x203),
        ("KEY_NUMERIC_4", EventCode.EV_KEY, 0x204),
        ("KEY_NUMERIC_5", EventCode.EV_KEY, 0x205),
        ("KEY_NUMERIC_6", EventCode.EV_KEY, 0x206),
        ("KEY_NUMERIC_7", EventCode.EV_KEY, 0x207),
        ("KEY_NUMERIC_8", EventCode.EV_KEY, 0x208),
        ("KEY_NUMERIC_9", EventCode.EV_KEY, 0x209),
        ("KEY_NUMERIC_STAR", EventCode.EV_KEY, 0x20a),
        ("KEY_NUMERIC_POUND", EventCode.EV_KEY, 0x20b),
        ("KEY_NUMERIC_A", EventCode.EV_KEY, 0x20c),
        ("KEY_NUMERIC_B", EventCode.EV_KEY, 0x20d),
        ("KEY_NUMERIC_C", EventCode.EV_KEY, 0x20e),
        ("KEY_NUMERIC_D", EventCode.EV_KEY, 0x20f),
        ("KEY_CAMERA_FOCUS", EventCode.EV_KEY, 0x210),
        ("KEY_WPS_BUTTON", EventCode.EV_KEY, 0x211),
        ("KEY_TOUCHPAD_TOGGLE", EventCode.EV_KEY, 0x212),
        ("KEY_TOUCHPAD_ON", EventCode.EV_KEY, 0x213),
        ("KEY_TOUCHPAD_OFF", EventCode.EV_KEY, 0x214),
        ("KEY_CAMERA_ZOOMIN", EventCode.EV_KEY, 0x215),
        ("KEY_CAMERA_ZOOMOUT", EventCode.EV_KEY, 0x216),
        ("KEY_CAMERA_UP", EventCode.EV_KEY, 0x217),
        ("KEY_CAMERA_DOWN", EventCode.EV_KEY, 0x218),
        ("KEY_CAMERA_LEFT", EventCode.EV_KEY, 0x219),
        ("KEY_CAMERA_RIGHT", EventCode.EV_KEY, 0x21a),
        ("KEY_ATTENDANT_ON", EventCode.EV_KEY, 0x21b),
        ("KEY_ATTENDANT_OFF", EventCode.EV_KEY, 0x21c),
        ("KEY_ATTENDANT_TOGGLE", EventCode.EV_KEY, 0x21d),
        ("KEY_LIGHTS_TOGGLE", EventCode.EV_KEY, 0x21e),
        ("BTN_DPAD_UP", EventCode.EV_KEY, 0x220),
        ("BTN_DPAD_DOWN", EventCode.EV_KEY, 0x221),
        ("BTN_DPAD_LEFT", EventCode.EV_KEY, 0x222),
        ("BTN_DPAD_RIGHT", EventCode.EV_KEY, 0x223),
        ("KEY_ALS_TOGGLE", EventCode.EV_KEY, 0x230),
        ("KEY_ROTATE_LOCK_TOGGLE", EventCode.EV_KEY, 0x231),
        ("KEY_REFRESH_RATE_TOGGLE", EventCode.EV_KEY, 0x232),
        ("KEY_BUTTONCONFIG", EventCode.EV_KEY, 0x240),
        ("KEY_TASKMANAGER", EventCode.EV_KEY, 0x241),
        ("KEY_JOURNAL", EventCode.EV_KEY, 0x242),
        ("KEY_CONTROLPANEL", EventCode.EV_KEY, 0x243),
        ("KEY_APPSELECT", EventCode.EV_KEY, 0x244),
        ("KEY_SCREENSAVER", EventCode.EV_KEY, 0x245),
        ("KEY_VOICECOMMAND", EventCode.EV_KEY, 0x246),
        ("KEY_ASSISTANT", EventCode.EV_KEY, 0x247),
        ("KEY_KBD_LAYOUT_NEXT", EventCode.EV_KEY, 0x248),
        ("KEY_EMOJI_PICKER", EventCode.EV_KEY, 0x249),
        ("KEY_DICTATE", EventCode.EV_KEY, 0x24a),
        ("KEY_BRIGHTNESS_MIN", EventCode.EV_KEY, 0x250),
        ("KEY_KBDINPUTASSIST_PREV", EventCode.EV_KEY, 0x260),
        ("KEY_KBDINPUTASSIST_NEXT", EventCode.EV_KEY, 0x261),
        ("KEY_KBDINPUTASSIST_PREVGROUP", EventCode.EV_KEY, 0x262),
        ("KEY_KBDINPUTASSIST_NEXTGROUP", EventCode.EV_KEY, 0x263),
        ("KEY_KBDINPUTASSIST_ACCEPT", EventCode.EV_KEY, 0x264),
        ("KEY_KBDINPUTASSIST_CANCEL", EventCode.EV_KEY, 0x265),
        ("KEY_RIGHT_UP", EventCode.EV_KEY, 0x266),
        ("KEY_RIGHT_DOWN", EventCode.EV_KEY, 0x267),
        ("KEY_LEFT_UP", EventCode.EV_KEY, 0x268),
        ("KEY_LEFT_DOWN", EventCode.EV_KEY, 0x269),
        ("KEY_ROOT_MENU", EventCode.EV_KEY, 0x26a),
        ("KEY_MEDIA_TOP_MENU", EventCode.EV_KEY, 0x26b),
        ("KEY_NUMERIC_11", EventCode.EV_KEY, 0x26c),
        ("KEY_NUMERIC_12", EventCode.EV_KEY, 0x26d),
        ("KEY_AUDIO_DESC", EventCode.EV_KEY, 0x26e),
        ("KEY_3D_MODE", EventCode.EV_KEY, 0x26f),
        ("KEY_NEXT_FAVORITE", EventCode.EV_KEY, 0x270),
        ("KEY_STOP_RECORD", EventCode.EV_KEY, 0x271),
        ("KEY_PAUSE_RECORD", EventCode.EV_KEY, 0x272),
        ("KEY_VOD", EventCode.EV_KEY, 0x273),
        ("KEY_UNMUTE", EventCode.EV_KEY, 0x274),
        ("KEY_FASTREVERSE", EventCode.EV_KEY, 0x275),
        ("KEY_SLOWREVERSE", EventCode.EV_KEY, 0x276),
        ("KEY_DATA", EventCode.EV_KEY, 0x277),
        ("KEY_ONSCREEN_KEYBOARD", EventCode.EV_KEY, 0x278),
        ("KEY_PRIVACY_SCREEN_TOGGLE", EventCode.EV_KEY, 0x279),
        ("KEY_SELECTIVE_SCREENSHOT", EventCode.EV_KEY, 0x27a),
        ("KEY_NEXT_ELEMENT", EventCode.EV_KEY, 0x27b),
        ("KEY_PREVIOUS_ELEMENT", EventCode.EV_KEY, 0x27c),
        ("KEY_AUTOPILOT_ENGAGE_TOGGLE", EventCode.EV_KEY, 0x27d),
        ("KEY_MARK_WAYPOINT", EventCode.EV_KEY, 0x27e),
        ("KEY_SOS", EventCode.EV_KEY, 0x27f),
        ("KEY_NAV_CHART", EventCode.EV_KEY, 0x280),
        ("KEY_FISHING_CHART", EventCode.EV_KEY, 0x281),
        ("KEY_SINGLE_RANGE_RADAR", EventCode.EV_KEY, 0x282),
        ("KEY_DUAL_RANGE_RADAR", EventCode.EV_KEY, 0x283),
        ("KEY_RADAR_OVERLAY", EventCode.EV_KEY, 0x284),
        ("KEY_TRADITIONAL_SONAR", EventCode.EV_KEY, 0x285),
        ("KEY_CLEARVU_SONAR", EventCode.EV_KEY, 0x286),
        ("KEY_SIDEVU_SONAR", EventCode.EV_KEY, 0x287),
        ("KEY_NAV_INFO", EventCode.EV_KEY, 0x288),
        ("KEY_BRIGHTNESS_MENU", EventCode.EV_KEY, 0x289),
        ("KEY_MACRO1", EventCode.EV_KEY, 0x290),
        ("KEY_MACRO2", EventCode.EV_KEY, 0x291),
        ("KEY_MACRO3", EventCode.EV_KEY, 0x292),
        ("KEY_MACRO4", EventCode.EV_KEY, 0x293),
        ("KEY_MACRO5", EventCode.EV_KEY, 0x294),
        ("KEY_MACRO6", EventCode.EV_KEY, 0x295),
        ("KEY_MACRO7", EventCode.EV_KEY, 0x296),
        ("KEY_MACRO8", EventCode.EV_KEY, 0x297),
        ("KEY_MACRO9", EventCode.EV_KEY, 0x298),
        ("KEY_MACRO10", EventCode.EV_KEY, 0x299),
        ("KEY_MACRO11", EventCode.EV_KEY, 0x29a),
        ("KEY_MACRO12", EventCode.EV_KEY, 0x29b),
        ("KEY_MACRO13", EventCode.EV_KEY, 0x29c),
        ("KEY_MACRO14", EventCode.EV_KEY, 0x29d),
        ("KEY_MACRO15", EventCode.EV_KEY, 0x29e),
        ("KEY_MACRO16", EventCode.EV_KEY, 0x29f),
        ("KEY_MACRO17", EventCode.EV_KEY, 0x2a0),
        ("KEY_MACRO18", EventCode.EV_KEY, 0x2a1),
        ("KEY_MACRO19", EventCode.EV_KEY, 0x2a2),
        ("KEY_MACRO20", EventCode.EV_KEY, 0x2a3),
        ("KEY_MACRO21", EventCode.EV_KEY, 0x2a4),
        ("KEY_MACRO22", EventCode.EV_KEY, 0x2a5),
        ("KEY_MACRO23", EventCode.EV_KEY, 0x2a6),
        ("KEY_MACRO24", EventCode.EV_KEY, 0x2a7),
        ("KEY_MACRO25", EventCode.EV_KEY, 0x2a8),
        ("KEY_MACRO26", EventCode.EV_KEY, 0x2a9),
        ("KEY_MACRO27", EventCode.EV_KEY, 0x2aa),
        ("KEY_MACRO28", EventCode.EV_KEY, 0x2ab),
        ("KEY_MACRO29", EventCode.EV_KEY, 0x2ac),
        ("KEY_MACRO30", EventCode.EV_KEY, 0x2ad),
        ("KEY_MACRO_RECORD_START", EventCode.EV_KEY, 0x2b0),
        ("KEY_MACRO_RECORD_STOP", EventCode.EV_KEY, 0x2b1),
        ("KEY_MACRO_PRESET_CYCLE", EventCode.EV_KEY, 0x2b2),
        ("KEY_MACRO_PRESET1", EventCode.EV_KEY, 0x2b3),
        ("KEY_MACRO_PRESET2", EventCode.EV_KEY, 0x2b4),
        ("KEY_MACRO_PRESET3", EventCode.EV_KEY, 0x2b5),
        ("KEY_KBD_LCD_MENU1", EventCode.EV_KEY, 0x2b8),
        ("KEY_KBD_LCD_MENU2", EventCode.EV_KEY, 0x2b9),
        ("KEY_KBD_LCD_MENU3", EventCode.EV_KEY, 0x2ba),
        ("KEY_KBD_LCD_MENU4", EventCode.EV_KEY, 0x2bb),
        ("KEY_KBD_LCD_MENU5", EventCode.EV_KEY, 0x2bc),
        ("BTN_TRIGGER_HAPPY1", EventCode.EV_KEY, 0x2c0),
        ("BTN_TRIGGER_HAPPY2", EventCode.EV_KEY, 0x2c1),
        ("BTN_TRIGGER_HAPPY3", EventCode.EV_KEY, 0x2c2),
        ("BTN_TRIGGER_HAPPY4", EventCode.EV_KEY, 0x2c3),
        ("BTN_TRIGGER_HAPPY5", EventCode.EV_KEY, 0x2c4),
        ("BTN_TRIGGER_HAPPY6", EventCode.EV_KEY, 0x2c5),
        ("BTN_TRIGGER_HAPPY7", EventCode.EV_KEY, 0x2c6),
        ("BTN_TRIGGER_HAPPY8", EventCode.EV_KEY, 0x2c7),
        ("BTN_TRIGGER_HAPPY9", EventCode.EV_KEY, 0x2c8),
        ("BTN_TRIGGER_HAPPY10", EventCode.EV_KEY, 0x2c9),
        ("BTN_TRIGGER_HAPPY11", EventCode.EV_KEY, 0x2ca),
        ("BTN_TRIGGER_HAPPY12", EventCode.EV_KEY, 0x2cb),
        ("BTN_TRIGGER_HAPPY13", EventCode.EV_KEY, 0x2cc),
        ("BTN_TRIGGER_HAPPY14", EventCode.EV_KEY, 0x2cd),
        ("BTN_TRIGGER_HAPPY15", EventCode.EV_KEY, 0x2ce),
        ("BTN_TRIGGER_HAPPY16", EventCode.EV_KEY, 0x2cf),
        ("BTN_TRIGGER_HAPPY17", EventCode.EV_KEY, 0x2d0),
        ("BTN_TRIGGER_HAPPY18", EventCode.EV_KEY, 0x2d1),
        ("BTN_TRIGGER_HAPPY19", EventCode.EV_KEY, 0x2d2),
        ("BTN_TRIGGER_HAPPY20", EventCode.EV_KEY, 0x2d3),
        ("BTN_TRIGGER_HAPPY21", EventCode.EV_KEY, 0x2d4),
        ("BTN_TRIGGER_HAPPY22", EventCode.EV_KEY, 0x2d5),
        ("BTN_TRIGGER_HAPPY23", EventCode.EV_KEY, 0x2d6),
        ("BTN_TRIGGER_HAPPY24", EventCode.EV_KEY, 0x2d7),
        ("BTN_TRIGGER_HAPPY25", EventCode.EV_KEY, 0x2d8),
        ("BTN_TRIGGER_HAPPY26", EventCode.EV_KEY, 0x2d9),
        ("BTN_TRIGGER_HAPPY27", EventCode.EV_KEY, 0x2da),
        ("BTN_TRIGGER_HAPPY28", EventCode.EV_KEY, 0x2db),
        ("BTN_TRIGGER_HAPPY29", EventCode.EV_KEY, 0x2dc),
        ("BTN_TRIGGER_HAPPY30", EventCode.EV_KEY, 0x2dd),
        ("BTN_TRIGGER_HAPPY31", EventCode.EV_KEY, 0x2de),
        ("BTN_TRIGGER_HAPPY32", EventCode.EV_KEY, 0x2df),
        ("BTN_TRIGGER_HAPPY33", EventCode.EV_KEY, 0x2e0),
        ("BTN_TRIGGER_HAPPY34", EventCode.EV_KEY, 0x2e1),
        ("BTN_TRIGGER_HAPPY35", EventCode.EV_KEY, 0x2e2),
        ("BTN_TRIGGER_HAPPY36", EventCode.EV_KEY, 0x2e3),
        ("BTN_TRIGGER_HAPPY37", EventCode.EV_KEY, 0x2e4),
        ("BTN_TRIGGER_HAPPY38", EventCode.EV_KEY, 0x2e5),
        ("BTN_TRIGGER_HAPPY39", EventCode.EV_KEY, 0x2e6),
        ("BTN_TRIGGER_HAPPY40", EventCode.EV_KEY, 0x2e7),
        ("REL_X", EventCode.EV_REL, 0x0),
        ("REL_Y", EventCode.EV_REL, 0x1),
        ("REL_Z", EventCode.EV_REL, 0x2),
        ("REL_RX", EventCode.EV_REL, 0x3),
        ("REL_RY", EventCode.EV_REL, 0x4),
        ("REL_RZ", EventCode.EV_REL, 0x5),
        ("REL_HWHEEL", EventCode.EV_REL, 0x6),
        ("REL_DIAL", EventCode.EV_REL, 0x7),
        ("REL_WHEEL", EventCode.EV_REL, 0x8),
        ("REL_MISC", EventCode.EV_REL, 0x9),
        ("REL_RESERVED", EventCode.EV_REL, 0xa),
        ("REL_WHEEL_HI_RES", EventCode.EV_REL, 0xb),
        ("REL_HWHEEL_HI_RES", EventCode.EV_REL, 0xc),
        ("ABS_X", EventCode.EV_ABS, 0x0),
        ("ABS_Y", EventCode.EV_ABS, 0x1),
        ("ABS_Z", EventCode.EV_ABS, 0x2),
        ("ABS_RX", EventCode.EV_ABS, 0x3),
        ("ABS_RY", EventCode.EV_ABS, 0x4),
        ("ABS_RZ", EventCode.EV_ABS, 0x5),
        ("ABS_THROTTLE", EventCode.EV_ABS, 0x6),
        ("ABS_RUDDER", EventCode.EV_ABS, 0x7),
        ("ABS_WHEEL", EventCode.EV_ABS, 0x8),
        ("ABS_GAS", EventCode.EV_ABS, 0x9),
        ("ABS_BRAKE", EventCode.EV_ABS, 0xa),
        ("ABS_HAT0X", EventCode.EV_ABS, 0x10),
        ("ABS_HAT0Y", EventCode.EV_ABS, 0x11),
        ("ABS_HAT1X", EventCode.EV_ABS, 0x12),
        ("ABS_HAT1Y", EventCode.EV_ABS, 0x13),
        ("ABS_HAT2X", EventCode.EV_ABS, 0x14),
        ("ABS_HAT2Y", EventCode.EV_ABS, 0x15),
        ("ABS_HAT3X", EventCode.EV_ABS, 0x16),
        ("ABS_HAT3Y", EventCode.EV_ABS, 0x17),
        ("ABS_PRESSURE", EventCode.EV_ABS, 0x18),
        ("ABS_DISTANCE", EventCode.EV_ABS, 0x19),
        ("ABS_TILT_X", EventCode.EV_ABS, 0x1a),
        ("ABS_TILT_Y", EventCode.EV_ABS, 0x1b),
        ("ABS_TOOL_WIDTH", EventCode.EV_ABS, 0x1c),
        ("ABS_VOLUME", EventCode.EV_ABS, 0x20),
        ("ABS_PROFILE", EventCode.EV_ABS, 0x21),
        ("ABS_MISC", EventCode.EV_ABS, 0x28),
        ("ABS_RESERVED", EventCode.EV_ABS, 0x2e),
        ("ABS_MT_SLOT", EventCode.EV_ABS, 0x2f),
        ("ABS_MT_TOUCH_MAJOR", EventCode.EV_ABS, 0x30),
        ("ABS_MT_TOUCH_MINOR", EventCode.EV_ABS, 0x31),
        ("ABS_MT_WIDTH_MAJOR", EventCode.EV_ABS, 0x32),
        ("ABS_MT_WIDTH_MINOR", EventCode.EV_ABS, 0x33),
        ("ABS_MT_ORIENTATION", EventCode.EV_ABS, 0x34),
        ("ABS_MT_POSITION_X", EventCode.EV_ABS, 0x35),
        ("ABS_MT_POSITION_Y", EventCode.EV_ABS, 0x36),
        ("ABS_MT_TOOL_TYPE", EventCode.EV_ABS, 0x37),
        ("ABS_MT_BLOB_ID", EventCode.EV_ABS, 0x38),
        ("ABS_MT_TRACKING_ID", EventCode.EV_ABS, 0x39),
        ("ABS_MT_PRESSURE", EventCode.EV_ABS, 0x3a),
        ("ABS_MT_DISTANCE", EventCode.EV_ABS, 0x3b),
        ("ABS_MT_TOOL_X", EventCode.EV_ABS, 0x3c),
        ("ABS_MT_TOOL_Y", EventCode.EV_ABS, 0x3d),
        ("BTN_MISC", EventCode.EV_KEY, 0x100),
        ("BTN_MOUSE", EventCode.EV_KEY, 0x110),
        ("BTN_JOYSTICK", EventCode.EV_KEY, 0x120),
        ("BTN_GAMEPAD", EventCode.EV_KEY, 0x130),
        ("BTN_DIGI", EventCode.EV_KEY, 0x140),
        ("BTN_WHEEL", EventCode.EV_KEY, 0x150),
        ("BTN_TRIGGER_HAPPY", EventCode.EV_KEY, 0x2c0),
        ("KEY_MIN_INTERESTING", EventCode.EV_KEY, 0x71),
    ]
}
