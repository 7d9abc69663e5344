// The recording of input devices that `focusctl record` writes, `focusctl replay` plays through
// uinput and `focusd simulate --input` plays offline: a line-oriented text a person can read and
// edit. The format is documented in docs/bench-tools.md ("Recording format"); in short:
//
//     # focusd recording 1
//     device kbd
//       name "test-focusd keyboard"
//       ids bus 0x0003 vendor 0x046d product 0xc31c version 0x0111
//       phys "usb-0000:00:14.0-1/input0"
//       class keyboard
//       keys KEY_ESC KEY_ENTER KEY_UP KEY_DOWN
//       relative REL_DIAL
//       absolute ABS_X min -32767 max 32767 fuzz 16 flat 128 resolution 0
//       properties INPUT_PROP_POINTER
//       kernel-repeat
//     events
//     1764000000.000000 kbd EV_MSC MSC_SCAN 458833
//     1764000000.000000 kbd EV_KEY KEY_DOWN 1
//     1764000000.000000 kbd EV_SYN SYN_REPORT 0
//
// Each event line is the kernel timestamp (seconds.microseconds, CLOCK_REALTIME), the device, the
// type, the code and the value; names are the kernel's, and any type or code may be written as a
// number instead (`EV_MSC 4`, `0x04 0x04`). A `SYN_REPORT` line ends a frame, as in the kernel. A
// device plugged in during a recording is described where it appeared, before its first event
// (a `device` block may come after `events`); `#` starts a comment (`focusctl record` notes
// unplugs as `# SECONDS.MICROSECONDS removed ID`).
import InputMapping

/// One axis of a recorded device (`io.focusd.Inspect` `Axis`).
public struct RecordedAxis: Codable, Hashable, Sendable {
    public var code: Int
    public var minimum: Int
    public var maximum: Int
    public var fuzz: Int
    public var flat: Int
    public var resolution: Int

    public init(code: Int, minimum: Int, maximum: Int, fuzz: Int = 0, flat: Int = 0, resolution: Int = 0) {
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// A recorded device's description (`io.focusd.Inspect` `RecordedDevice`).
public struct RecordedDevice: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var version: Int
    public var phys: String?
    public var uniq: String?
    public var `class`: String
    public var keys: [Int]
    public var relativeAxes: [Int]
    public var absoluteAxes: [RecordedAxis]
    public var properties: [Int]
    public var kernelRepeat: Bool

    public init(
        id: String, name: String, bus: Int = 0, vendor: Int = 0, product: Int = 0, version: Int = 0,
        phys: String? = nil, uniq: String? = nil, class: String = "other", keys: [Int] = [],
        relativeAxes: [Int] = [], absoluteAxes: [RecordedAxis] = [], properties: [Int] = [], kernelRepeat: Bool = false
    ) {
        self.id = id
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
        self.class = `class`
        self.keys = keys
        self.relativeAxes = relativeAxes
        self.absoluteAxes = absoluteAxes
        self.properties = properties
        self.kernelRepeat = kernelRepeat
    }

    /// The identity focusd's mapping and classification read (no node, no udev properties).
    public var identity: DeviceIdentity {
        var axes: [UInt16: AxisInfo] = [:]
        for a in absoluteAxes {
            axes[UInt16(a.code)] = AxisInfo(
                minimum: Int32(clamping: a.minimum), maximum: Int32(clamping: a.maximum), fuzz: Int32(clamping: a.fuzz),
                flat: Int32(clamping: a.flat), resolution: Int32(clamping: a.resolution))
        }
        return DeviceIdentity(
            name: name, bus: bus, vendor: vendor, product: product, version: version, phys: phys, uniq: uniq,
            capabilities: Capabilities(
                keys: Set(keys.map { UInt16(truncatingIfNeeded: $0) }),
                relativeAxes: Set(relativeAxes.map { UInt16(truncatingIfNeeded: $0) }), absoluteAxes: axes,
                properties: Set(properties.map { UInt16(truncatingIfNeeded: $0) }), kernelRepeat: kernelRepeat))
    }
}

/// One kernel event (`io.focusd.Inspect` `RawEvent`), with its device in a recording.
public struct RecordedEvent: Codable, Hashable, Sendable {
    public var device: String
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// Kernel timestamp, microseconds since the epoch.
    public var timeUsec: Int64

    public init(device: String, type: UInt16, code: UInt16, value: Int32, timeUsec: Int64) {
        self.device = device
        self.type = type
        self.code = code
        self.value = value
        self.timeUsec = timeUsec
    }
}

/// A whole recording: the devices, then every event in the order focusd read them.
public struct Recording: Hashable, Sendable {
    public var devices: [RecordedDevice]
    public var events: [RecordedEvent]

    public init(devices: [RecordedDevice] = [], events: [RecordedEvent] = []) {
        self.devices = devices
        self.events = events
    }

    /// A syntax or consistency error, with its 1-based line.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    // MARK: Names

    static let typeNames: [(String, UInt16)] = [
        ("EV_SYN", 0x00), ("EV_KEY", 0x01), ("EV_REL", 0x02), ("EV_ABS", 0x03), ("EV_MSC", 0x04), ("EV_SW", 0x05),
        ("EV_LED", 0x11), ("EV_SND", 0x12), ("EV_REP", 0x14), ("EV_FF", 0x15), ("EV_PWR", 0x16),
    ]
    /// EV_MSC codes (not in InputMapping's table, which names what profiles match).
    static let mscNames: [(String, UInt16)] = [
        ("MSC_SERIAL", 0), ("MSC_PULSELED", 1), ("MSC_GESTURE", 2), ("MSC_RAW", 3), ("MSC_SCAN", 4), ("MSC_TIMESTAMP", 5),
    ]

    static func typeName(_ type: UInt16) -> String {
        typeNames.first { $0.1 == type }?.0 ?? hex(Int(type), 2)
    }

    static func codeName(type: UInt16, code: UInt16) -> String {
        if type == 0x04, let n = mscNames.first(where: { $0.1 == code }) { return n.0 }
        if let n = EventCode.name(type: type, code: code), validName(n, type: type) { return n }
        return hex(Int(code), 3)
    }

    /// The kernel prefixes of each type's codes (a name from another type is not accepted).
    static func validName(_ name: String, type: UInt16) -> Bool {
        let prefixes: [String] = switch type {
        case 0x00: ["SYN_"]
        case 0x01: ["KEY_", "BTN_"]
        case 0x02: ["REL_"]
        case 0x03: ["ABS_"]
        case 0x04: ["MSC_"]
        case 0x05: ["SW_"]
        case 0x11: ["LED_"]
        case 0xFFFF: ["INPUT_PROP_"]
        default: []
        }
        return prefixes.contains { name.hasPrefix($0) }
    }

    static func hex(_ v: Int, _ digits: Int) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    static func number(_ text: Substring) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("-0x") { return Int(text.dropFirst(3), radix: 16).map { -$0 } }
        return Int(text)
    }

    static func parseType(_ text: Substring) -> UInt16? {
        if let t = typeNames.first(where: { $0.0 == text }) { return t.1 }
        return number(text).flatMap { UInt16(exactly: $0) }
    }

    static func parseCode(_ text: Substring, type: UInt16) -> UInt16? {
        if type == 0x04, let n = mscNames.first(where: { $0.0 == text }) { return n.1 }
        if let named = EventCode.named(String(text)) {
            return validName(String(text), type: type) ? named.code : nil
        }
        return number(text).flatMap { UInt16(exactly: $0) }
    }

    // MARK: Writing

    /// A string as the format quotes it.
    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if ch.value < 0x20 { out += "\\x" + hex(Int(ch.value), 2).dropFirst(2) } else { out.unicodeScalars.append(ch) }
            }
        }
        return out + "\""
    }

    /// The description lines of one device (`device ID` and its indented fields).
    public static func text(of d: RecordedDevice) -> [String] {
        var lines = ["device \(d.id)", "  name \(quote(d.name))",
                     "  ids bus \(hex(d.bus, 4)) vendor \(hex(d.vendor, 4)) product \(hex(d.product, 4)) version \(hex(d.version, 4))"]
        if let phys = d.phys { lines.append("  phys \(quote(phys))") }
        if let uniq = d.uniq { lines.append("  uniq \(quote(uniq))") }
        lines.append("  class \(d.class)")
        if !d.keys.isEmpty {
            lines.append("  keys " + d.keys.sorted().map { codeName(type: 0x01, code: UInt16(truncatingIfNeeded: $0)) }.joined(separator: " "))
        }
        if !d.relativeAxes.isEmpty {
            lines.append("  relative " + d.relativeAxes.sorted().map { codeName(type: 0x02, code: UInt16(truncatingIfNeeded: $0)) }.joined(separator: " "))
        }
        for a in d.absoluteAxes.sorted(by: { $0.code < $1.code }) {
            lines.append("  absolute \(codeName(type: 0x03, code: UInt16(truncatingIfNeeded: a.code))) min \(a.minimum) max \(a.maximum) fuzz \(a.fuzz) flat \(a.flat) resolution \(a.resolution)")
        }
        if !d.properties.isEmpty {
            lines.append("  properties " + d.properties.sorted().map { codeName(type: 0xFFFF, code: UInt16(truncatingIfNeeded: $0)) }.joined(separator: " "))
        }
        if d.kernelRepeat { lines.append("  kernel-repeat") }
        return lines
    }

    /// One event line.
    public static func text(of e: RecordedEvent) -> String {
        let sec = e.timeUsec >= 0 ? e.timeUsec / 1_000_000 : (e.timeUsec - 999_999) / 1_000_000
        let usec = e.timeUsec - sec * 1_000_000
        let u = String(usec)
        return "\(sec).\(String(repeating: "0", count: 6 - u.count))\(u) \(e.device) \(typeName(e.type)) \(codeName(type: e.type, code: e.code)) \(e.value)"
    }

    /// The header line every recording starts with.
    public static let header = "# focusd recording 1 (format: focusd docs/bench-tools.md, \"Recording format\")"

    /// The whole recording as text.
    public var text: String {
        var lines = [Self.header]
        for d in devices { lines += Self.text(of: d) }
        lines.append("events")
        for e in events { lines.append(Self.text(of: e)) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Reading

    /// Splits a line into words; `"..."` is one word (escapes \" \\ \n \t \xHH).
    static func words(_ line: Substring, _ n: Int) throws(ParseError) -> [(text: String, quoted: Bool)] {
        var out: [(String, Bool)] = []
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == " " || c == "\t" { i = line.index(after: i); continue }
            if c == "#" { break }
            if c == "\"" {
                var s = ""
                i = line.index(after: i)
                var closed = false
                while i < line.endIndex {
                    let d = line[i]
                    if d == "\"" { closed = true; i = line.index(after: i); break }
                    if d == "\\" {
                        i = line.index(after: i)
                        guard i < line.endIndex else { break }
                        switch line[i] {
                        case "n": s.append("\n")
                        case "t": s.append("\t")
                        case "x":
                            let a = line.index(after: i)
                            guard let b = line.index(a, offsetBy: 2, limitedBy: line.endIndex),
                                  let v = UInt8(line[a..<b], radix: 16) else {
                                throw ParseError(line: n, reason: "a \\x escape needs two hex digits")
                            }
                            s.unicodeScalars.append(Unicode.Scalar(v))
                            i = line.index(before: b)
                        default: s.append(line[i])
                        }
                        i = line.index(after: i)
                        continue
                    }
                    s.append(d)
                    i = line.index(after: i)
                }
                guard closed else { throw ParseError(line: n, reason: "a quoted string is not closed") }
                out.append((s, true))
                continue
            }
            var j = i
            while j < line.endIndex, line[j] != " ", line[j] != "\t" { j = line.index(after: j) }
            out.append((String(line[i..<j]), false))
            i = j
        }
        return out
    }

    /// Parses a recording; every error names its line.
    public init(parsing text: String) throws(ParseError) {
        self.init()
        var current: RecordedDevice?
        var inEvents = false
        var known: Set<String> = []
        var lastTime: [String: Int64] = [:]
        func finish() {
            if let d = current { devices.append(d); known.insert(d.id) }
            current = nil
        }
        var n = 0
        var sawHeader = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if n == 1, line.hasPrefix("# focusd recording") {
                sawHeader = true
                guard line.hasPrefix("# focusd recording 1") else {
                    throw ParseError(line: 1, reason: "this focusd reads format 1 of recordings")
                }
            }
            let w = try Self.words(line, n)
            guard let first = w.first else { continue }
            let indented = line.first == " " || line.first == "\t"
            if indented {
                guard current != nil else { throw ParseError(line: n, reason: "a device field outside a `device ID` block") }
                try Self.field(w, into: &current!, line: n)
                continue
            }
            if first.text == "device" {
                finish()
                guard w.count == 2, !w[1].quoted else { throw ParseError(line: n, reason: "expected `device ID`") }
                guard !known.contains(w[1].text) else { throw ParseError(line: n, reason: "device \(w[1].text) is described twice") }
                current = RecordedDevice(id: w[1].text, name: "")
                continue
            }
            finish()
            if first.text == "events" {
                guard w.count == 1, !inEvents else { throw ParseError(line: n, reason: "`events` comes once, alone on its line") }
                inEvents = true
                continue
            }
            guard inEvents else {
                throw ParseError(line: n, reason: "expected `device ID` or `events`, found `\(first.text)`")
            }
            guard w.count == 5 else {
                throw ParseError(line: n, reason: "an event line is `SECONDS.MICROSECONDS DEVICE TYPE CODE VALUE`")
            }
            let time = w[0].text.split(separator: ".", omittingEmptySubsequences: false)
            guard time.count == 2, time[1].count == 6, let sec = Int64(time[0]), let usec = Int64(time[1]), usec >= 0 else {
                throw ParseError(line: n, reason: "the time `\(w[0].text)` is not SECONDS.MICROSECONDS (six digits)")
            }
            let device = w[1].text
            guard known.contains(device) else { throw ParseError(line: n, reason: "device \(device) is not described above `events`") }
            guard let type = Self.parseType(Substring(w[2].text)) else {
                throw ParseError(line: n, reason: "unknown event type `\(w[2].text)`")
            }
            guard let code = Self.parseCode(Substring(w[3].text), type: type) else {
                throw ParseError(line: n, reason: "unknown code `\(w[3].text)` for \(Self.typeName(type))")
            }
            guard let value = Int32(w[4].text) else { throw ParseError(line: n, reason: "the value `\(w[4].text)` is not a 32-bit integer") }
            let t = sec * 1_000_000 + (sec < 0 ? -usec : usec)
            if let last = lastTime[device], t < last {
                throw ParseError(line: n, reason: "time goes backwards for device \(device)")
            }
            lastTime[device] = t
            events.append(RecordedEvent(device: device, type: type, code: code, value: value, timeUsec: t))
        }
        finish()
        guard sawHeader || n > 0 else { throw ParseError(line: 1, reason: "empty recording") }
        guard inEvents else { throw ParseError(line: n, reason: "no `events` line: a recording lists its devices, then `events`") }
        for d in devices where d.name.isEmpty {
            throw ParseError(line: 1, reason: "device \(d.id) has no `name`")
        }
    }

    /// One indented field of a device description.
    static func field(_ w: [(text: String, quoted: Bool)], into d: inout RecordedDevice, line n: Int) throws(ParseError) {
        let args = w.dropFirst()
        func codes(_ type: UInt16) throws(ParseError) -> [Int] {
            var out: [Int] = []
            for a in args {
                guard let c = parseCode(Substring(a.text), type: type) else {
                    throw ParseError(line: n, reason: "unknown code `\(a.text)` for \(type == 0xFFFF ? "properties" : typeName(type))")
                }
                out.append(Int(c))
            }
            return out
        }
        switch w[0].text {
        case "name", "phys", "uniq":
            guard args.count == 1, args.first!.quoted else { throw ParseError(line: n, reason: "`\(w[0].text)` takes one quoted string") }
            let s = args.first!.text
            if w[0].text == "name" { d.name = s } else if w[0].text == "phys" { d.phys = s } else { d.uniq = s }
        case "ids":
            let a = Array(args)
            guard a.count == 8, a[0].text == "bus", a[2].text == "vendor", a[4].text == "product", a[6].text == "version",
                  let bus = number(Substring(a[1].text)), let vendor = number(Substring(a[3].text)),
                  let product = number(Substring(a[5].text)), let version = number(Substring(a[7].text)) else {
                throw ParseError(line: n, reason: "expected `ids bus B vendor V product P version N`")
            }
            (d.bus, d.vendor, d.product, d.version) = (bus, vendor, product, version)
        case "class":
            guard args.count == 1 else { throw ParseError(line: n, reason: "`class` takes one word") }
            d.class = args.first!.text
        case "keys": d.keys += try codes(0x01)
        case "relative": d.relativeAxes += try codes(0x02)
        case "properties": d.properties += try codes(0xFFFF)
        case "absolute":
            let a = Array(args)
            guard let first = a.first, let code = parseCode(Substring(first.text), type: 0x03) else {
                throw ParseError(line: n, reason: "`absolute` needs an ABS_ code first")
            }
            var axis = RecordedAxis(code: Int(code), minimum: 0, maximum: 0)
            var i = 1
            var seen: Set<String> = []
            while i + 1 < a.count + 1 && i < a.count {
                guard i + 1 < a.count, let v = number(Substring(a[i + 1].text)) else {
                    throw ParseError(line: n, reason: "`\(a[i].text)` of an axis needs a number")
                }
                switch a[i].text {
                case "min": axis.minimum = v
                case "max": axis.maximum = v
                case "fuzz": axis.fuzz = v
                case "flat": axis.flat = v
                case "resolution": axis.resolution = v
                default: throw ParseError(line: n, reason: "unknown axis field `\(a[i].text)` (min, max, fuzz, flat, resolution)")
                }
                seen.insert(a[i].text)
                i += 2
            }
            guard seen.contains("min"), seen.contains("max") else { throw ParseError(line: n, reason: "an axis needs `min` and `max`") }
            d.absoluteAxes.append(axis)
        case "kernel-repeat":
            guard args.isEmpty else { throw ParseError(line: n, reason: "`kernel-repeat` takes nothing") }
            d.kernelRepeat = true
        default:
            throw ParseError(line: n, reason: "unknown device field `\(w[0].text)`")
        }
    }
}
