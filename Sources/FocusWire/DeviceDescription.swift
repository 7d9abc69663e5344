// Device descriptions (input.md §9): what the kernel says of one event node, as JSON, so that
// classification can be tried, tested and reported without the device.
import InputMapping
import Varlink

/// A malformed description, named by file, the description's index and the field.
public struct DeviceDescriptionError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// Index of the description in its file (0 for a file holding one object).
    public var index: Int?
    /// The field, as a path: `events.EV_KEY[3]`, `name`, `udev.ID_INPUT`.
    public var field: String?
    public var message: String

    public var description: String {
        var text = file
        if let index { text += ": description \(index)" }
        if let field { text += ": field \(field)" }
        return text + ": " + message
    }
}

/// Reads device descriptions into the identities the classifier takes.
public enum DeviceDescription {
    /// The code lists of `events`, with each type's largest code (linux/input-event-codes.h).
    static let codeLists: [String: (type: UInt16, max: UInt16)] = [
        "EV_KEY": (EventCode.EV_KEY, EventCode.KEY_MAX), "EV_REL": (EventCode.EV_REL, EventCode.REL_MAX),
        "EV_SW": (EventCode.EV_SW, EventCode.SW_MAX), "EV_MSC": (EventCode.EV_MSC, EventCode.MSC_MAX),
        "EV_LED": (EventCode.EV_LED, EventCode.LED_MAX), "EV_FF": (EventCode.EV_FF, EventCode.FF_MAX),
    ]
    static let fields: Set<String> = [
        "name", "bus", "vendor", "product", "version", "phys", "uniq", "properties", "events", "udev", "source",
    ]

    /// Reads `path` (`-`: standard input): one description or an array of them.
    public static func load(_ path: String) throws(DeviceDescriptionError) -> [DeviceIdentity] {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path == "-" ? "/dev/stdin" : path, limit: 64 << 20)
        } catch {
            throw DeviceDescriptionError(file: path, message: error.description)
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// The identities of a file's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(DeviceDescriptionError) -> [DeviceIdentity] {
        let document: JSONValue
        do {
            document = try JSONValue.parse(text)
        } catch {
            throw DeviceDescriptionError(file: file, message: "not JSON: \(error)")
        }
        let elements: [JSONValue]
        if let array = document.arrayValue {
            elements = array
        } else if document.objectValue != nil {
            elements = [document]
        } else {
            throw DeviceDescriptionError(file: file, message: "expected a description (an object) or an array of them")
        }
        var identities: [DeviceIdentity] = []
        for (index, element) in elements.enumerated() {
            identities.append(try identity(element, file: file, index: index))
        }
        return identities
    }

    /// One description's identity (node "", no group).
    static func identity(_ value: JSONValue, file: String, index: Int) throws(DeviceDescriptionError) -> DeviceIdentity {
        func fail(_ field: String?, _ message: String) -> DeviceDescriptionError {
            DeviceDescriptionError(file: file, index: index, field: field, message: message)
        }
        guard let object = value.objectValue else { throw fail(nil, "expected an object") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw fail(unknown, "unknown field (known: \(fields.sorted().joined(separator: ", ")))")
        }
        guard let nameValue = object["name"] else { throw fail("name", "missing") }
        guard let name = nameValue.stringValue else { throw fail("name", "expected a string") }
        func number(_ key: String) throws(DeviceDescriptionError) -> Int {
            guard let member = object[key], !member.isNull else { return 0 }
            guard let value = member.integerValue, case .integer = member, (0...0xFFFF).contains(value) else {
                throw fail(key, "expected a number from 0 to 65535")
            }
            return Int(value)
        }
        func string(_ key: String) throws(DeviceDescriptionError) -> String? {
            guard let member = object[key], !member.isNull else { return nil }
            guard let text = member.stringValue else { throw fail(key, "expected a string") }
            return text
        }
        func code(_ element: JSONValue, type: UInt16, max: UInt16, field: String) throws(DeviceDescriptionError) -> UInt16 {
            if case .integer(let value) = element {
                guard (0...Int64(max)).contains(value) else { throw fail(field, "code \(value) out of range 0...\(max)") }
                return UInt16(value)
            }
            guard let text = element.stringValue else { throw fail(field, "expected a code name or number") }
            guard let named = EventCode.named(text) else { throw fail(field, "unknown code name \(text)") }
            guard named.type == type else { throw fail(field, "\(text) is not a code of this event type") }
            // A *_CNT name is the header's count of codes, one past the largest.
            guard named.code <= max else { throw fail(field, "\(text) is \(named.code), the number of codes, out of range 0...\(max)") }
            return named.code
        }
        func codes(_ member: JSONValue?, type: UInt16, max: UInt16, field: String) throws(DeviceDescriptionError) -> Set<UInt16> {
            guard let member, !member.isNull else { return [] }
            guard let array = member.arrayValue else { throw fail(field, "expected an array of codes") }
            var result: Set<UInt16> = []
            for (position, element) in array.enumerated() {
                result.insert(try code(element, type: type, max: max, field: "\(field)[\(position)]"))
            }
            return result
        }

        let properties = try codes(object["properties"], type: EventCode.PROPERTY, max: EventCode.INPUT_PROP_MAX, field: "properties")
        guard let eventsValue = object["events"] else { throw fail("events", "missing") }
        guard let events = eventsValue.objectValue else { throw fail("events", "expected an object") }
        var lists: [UInt16: Set<UInt16>] = [:]
        var absolute: [UInt16: AxisInfo] = [:]
        var kernelRepeat = false
        var types: Set<UInt16> = [EventCode.EV_SYN]
        for key in events.keys.sorted() {
            let member = events[key]!
            let field = "events.\(key)"
            if let list = codeLists[key] {
                lists[list.type] = try codes(member, type: list.type, max: list.max, field: field)
                types.insert(list.type)
            } else if key == "EV_REP" {
                guard let flag = member.boolValue else { throw fail(field, "expected true or false") }
                kernelRepeat = flag
                if flag { types.insert(EventCode.EV_REP) }
            } else if key == "EV_ABS" {
                guard let axes = member.objectValue else { throw fail(field, "expected an object from axis to its absinfo") }
                types.insert(EventCode.EV_ABS)
                for axisName in axes.keys.sorted() {
                    let axisField = "\(field).\(axisName)"
                    let axis: UInt16
                    if let named = EventCode.named(axisName) {
                        guard named.type == EventCode.EV_ABS else { throw fail(axisField, "\(axisName) is not an absolute axis") }
                        guard named.code <= EventCode.ABS_MAX else {
                            throw fail(axisField, "\(axisName) is \(named.code), the number of axes, out of range 0...\(EventCode.ABS_MAX)")
                        }
                        axis = named.code
                    } else if let value = UInt16(axisName), value <= EventCode.ABS_MAX {
                        axis = value
                    } else {
                        throw fail(axisField, "unknown axis \(axisName)")
                    }
                    guard let info = axes[axisName]!.objectValue else { throw fail(axisField, "expected {\"min\", \"max\", ...}") }
                    if let unknown = info.keys.sorted().first(where: { !["min", "max", "fuzz", "flat", "resolution"].contains($0) }) {
                        throw fail("\(axisField).\(unknown)", "unknown absinfo field")
                    }
                    func value(_ key: String, required: Bool) throws(DeviceDescriptionError) -> Int32 {
                        guard let member = info[key] else {
                            if required { throw fail("\(axisField).\(key)", "missing") }
                            return 0
                        }
                        guard case .integer(let number) = member, let result = Int32(exactly: number) else {
                            throw fail("\(axisField).\(key)", "expected a 32-bit integer")
                        }
                        return result
                    }
                    absolute[axis] = AxisInfo(
                        minimum: try value("min", required: true), maximum: try value("max", required: true),
                        fuzz: try value("fuzz", required: false), flat: try value("flat", required: false),
                        resolution: try value("resolution", required: false))
                }
            } else {
                throw fail(field, "unknown event type (known: EV_KEY, EV_REL, EV_ABS, EV_SW, EV_MSC, EV_LED, EV_FF, EV_REP)")
            }
        }
        var udev: [String: String] = [:]
        if let member = object["udev"], !member.isNull {
            guard let entries = member.objectValue else { throw fail("udev", "expected an object of strings") }
            for (key, value) in entries {
                guard let text = value.stringValue else { throw fail("udev.\(key)", "expected a string") }
                udev[key] = text
            }
        }
        _ = try string("source")
        return DeviceIdentity(
            name: name, bus: try number("bus"), vendor: try number("vendor"), product: try number("product"),
            version: try number("version"), phys: try string("phys"), uniq: try string("uniq"),
            capabilities: Capabilities(
                keys: lists[EventCode.EV_KEY] ?? [], relativeAxes: lists[EventCode.EV_REL] ?? [], absoluteAxes: absolute,
                properties: properties, kernelRepeat: kernelRepeat, switches: lists[EventCode.EV_SW] ?? [],
                misc: lists[EventCode.EV_MSC] ?? [], leds: lists[EventCode.EV_LED] ?? [],
                forceFeedback: lists[EventCode.EV_FF] ?? [], eventTypes: types),
            udevProperties: udev)
    }
}
