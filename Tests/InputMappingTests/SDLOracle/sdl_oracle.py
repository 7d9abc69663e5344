#!/usr/bin/env python3
"""An independent reading of SDL3's gamepad-mapping rules, for focusd's differential test.

Written from the rules of SDL3 (src/joystick/SDL_gamepad.c, SDL_joystick.c and the Linux backend),
not from focusd's Swift code, and not copied from SDL's. For every `platform:Linux` line of a
database file it prints how SDL reads it, and for a pad described from each line, the line SDL picks:

  L <line> accept <binding>;<binding>...     (bindings sorted; `target=source`)
  L <line> skip <reason>
  M <line> <bus> <vendor> <product> <version> <name as hex> <guid> <chosen line or ->

Bindings, in SDL's terms:
  target  `button:NAME` or `axis:NAME:RANGE`, RANGE `full` (min..max), `+` (0..max), `-` (0..min);
          a trigger is always `+`. The same binding twice counts once.
  source  `bN`, `hN.M`, `aN:RANGE` with `~` appended when inverted.
usage: sdl_oracle.py gamecontrollerdb.txt
"""
import sys

AXES = ["leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger"]
BUTTONS = ["a", "b", "x", "y", "back", "guide", "start", "leftstick", "rightstick",
           "leftshoulder", "rightshoulder", "dpup", "dpdown", "dpleft", "dpright",
           "misc1", "paddle1", "paddle2", "paddle3", "paddle4", "touchpad",
           "misc2", "misc3", "misc4", "misc5", "misc6"]
FIELD_LIMIT = 20  # SDL's key and value buffers: a longer key or value ends the parse


def element(key, value):
    """One `key:value` pair: a (target, source) binding, or None when SDL binds nothing."""
    out_half = None
    if key[:1] in ("+", "-"):
        out_half, key = key[0], key[1:]
    lowered = key.lower()  # SDL compares element names ignoring case
    in_half = None
    if value[:1] in ("+", "-"):
        in_half, value = value[0], value[1:]
    inverted = value.endswith("~")
    if len(value) >= 2 and value[0] == "a" and value[1].isdigit():
        digits = ""
        for c in value[1:]:
            if not c.isdigit():
                break
            digits += c
        source = "a%d:%s%s" % (int(digits), {"+": "+", "-": "-", None: "full"}[in_half], "~" if inverted else "")
    elif len(value) >= 2 and value[0] == "b" and value[1].isdigit():
        digits = ""
        for c in value[1:]:
            if not c.isdigit():
                break
            digits += c
        source = "b%d" % int(digits)
    elif len(value) >= 4 and value[0] == "h" and value[1].isdigit() and value[2] == "." and value[3].isdigit():
        digits = ""
        for c in value[3:]:
            if not c.isdigit():
                break
            digits += c
        source = "h%d.%d" % (int(value[1]), int(digits))
    else:
        return None
    if lowered in AXES:
        if lowered in ("lefttrigger", "righttrigger"):
            rng = "+"  # a trigger is 0..max whatever half the line names
        elif out_half is not None:
            rng = out_half
        else:
            rng = "full"
        return ("axis:%s:%s" % (lowered, rng), source)
    if lowered in BUTTONS:
        return ("button:%s" % lowered, source)
    return None


def bindings(rest):
    """The mapping after GUID and name, read character by character as SDL's rules say."""
    found = []
    key, value, in_key, index = [], [], True, 0

    def put(buffer, i, c):
        while len(buffer) <= i:
            buffer.append("")
        buffer[i] = c

    for c in rest:
        if c == ":":
            index, in_key = 0, False
        elif c == " ":
            continue
        elif c == ",":
            b = element("".join(key), "".join(value))
            if b and b not in found:  # a binding already there is not added twice
                found.append(b)
            key, value, in_key, index = [], [], True, 0
        else:
            if index >= FIELD_LIMIT:
                return found, "field too long"
            put(key if in_key else value, index, c)
            index += 1
    if key or value:
        b = element("".join(key), "".join(value))
        if b and b not in found:
            found.append(b)
    return found, None


def guid_bytes(text):
    """SDL reads up to 16 bytes from the hex digits; a non-hex digit counts as 0."""
    out = bytearray(16)
    for i in range(0, min(len(text), 32) - 1, 2):
        def nib(ch):
            return int(ch, 16) if ch in "0123456789abcdefABCDEF" else 0
        out[i // 2] = nib(text[i]) << 4 | nib(text[i + 1])
    return bytes(out)


def word(g, i):
    return g[2 * i] | g[2 * i + 1] << 8


def with_word(g, i, v):
    g = bytearray(g)
    g[2 * i], g[2 * i + 1] = v & 0xFF, v >> 8
    return bytes(g)


def crc16(data):
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def standard_form(g):
    bus = word(g, 0)
    return (bus < 0x20 or bus == 0xFF) and word(g, 3) == 0 and word(g, 5) == 0


def ids(g):
    """vendor, product, version, crc as SDL's GUID info reads them."""
    bus = word(g, 0)
    if standard_form(g):
        return word(g, 2), word(g, 4), word(g, 6), word(g, 1)
    if bus < 0x20 or bus == 0xFF:
        return 0, 0, 0, word(g, 1)
    return 0, 0, 0, 0


def make_guid(bus, vendor, product, version, name):
    """SDL's Linux evdev GUID: driver signature and data 0."""
    raw = name.encode()
    g = bytearray(16)
    g[0:2] = bus.to_bytes(2, "little")
    g[2:4] = crc16(raw).to_bytes(2, "little")
    if vendor:
        g[4:6] = vendor.to_bytes(2, "little")
        g[8:10] = product.to_bytes(2, "little")
        g[12:14] = version.to_bytes(2, "little")
    else:
        cut = raw[:11]  # 12 bytes of room, one kept for the terminating zero
        g[4:4 + len(cut)] = cut
    return bytes(g)


def lookup(table, pad):
    """SDL's order: lines with the pad's CRC, then lines without a CRC; exact version first, then
    (when vendor and product are known) any version. A line with a CRC takes only pads with it."""
    vendor, product, _, crc = ids(pad)

    def match(keep_version, exact_crc):
        wanted = with_word(pad, 1, 0)
        if not keep_version:
            wanted = with_word(wanted, 6, 0)
        best = None
        for guid, line_crc, line in table:
            if guid == bytes(16):
                continue
            candidate = guid if keep_version else with_word(guid, 6, 0)
            if candidate != wanted:
                continue
            if line_crc:
                if line_crc == crc:
                    return line
                continue
            if exact_crc and crc:
                continue
            if best is None:
                best = line
        return best

    found = match(True, True) or match(True, False)
    if found is None and vendor and product:
        found = match(False, True) or match(False, False)
    return found


def main(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    table = []  # (GUID with CRC cleared, line number), in SDL's list order
    described = []
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        at = line.find("platform:")
        if at < 0:
            continue
        tail = line[at + len("platform:"):]
        comma = tail.find(",")
        if comma < 0 or tail[:comma].lower() != "linux":
            continue
        first = line.find(",")
        second = line.find(",", first + 1) if first >= 0 else -1
        if first < 0 or second < 0:
            print("L %d skip no name or no mapping" % number)
            continue
        guid_text, name, rest = line[:first], line[first + 1:second], line[second + 1:]
        found, problem = bindings(rest)
        if problem:
            print("L %d skip %s" % (number, problem))
            continue
        if guid_text.lower() in ("xinput", "default"):
            # Not a GUID: the XInput backend's line (Windows only) or the fallback for every pad.
            print("L %d skip %s is not a GUID" % (number, guid_text))
            continue
        print("L %d accept %s" % (number, ";".join(sorted("%s=%s" % b for b in found))))
        full = guid_bytes(guid_text)
        # A CRC in the line's GUID moves to the line: then only a pad whose name has that CRC takes it.
        crc = ids(full)[3]
        guid = with_word(full, 1, 0)
        for i, (existing, existing_crc, _) in enumerate(table):
            if existing == guid and existing_crc == crc and guid != bytes(16):
                table[i] = (guid, crc, number)  # a later line for the same GUID replaces, in place
                break
        else:
            table.append((guid, crc, number))
        described.append((number, guid, name))
    for number, guid, name in described:
        if guid == bytes(16):
            continue
        bus = word(guid, 0)
        if standard_form(guid) and word(guid, 2):
            vendor, product, version = word(guid, 2), word(guid, 4), word(guid, 6)
            pad_name = name
        else:
            vendor = product = version = 0
            stored = guid[4:16].split(b"\0")[0]
            # The pad is named as the line says when the GUID holds that name's start.
            pad_name = name if name.encode()[:11] == stored else stored.decode("latin-1")
        pad = make_guid(bus, vendor, product, version, pad_name)
        chosen = lookup(table, pad)
        print("M %d %d %d %d %d %s %s %s" % (number, bus, vendor, product, version, pad_name.encode().hex() or "-",
                                             pad.hex(), chosen if chosen is not None else "-"))


if __name__ == "__main__":
    main(sys.argv[1])
