// The device mappers on the input thread: one InputMapping `DeviceMapper` per read device, its
// timers (repeat, long-press, the end of an edit stream) as the input core's deadlines.
//
// Pure: the caller passes the monotonic time, the wall clock and the focus context.
import InputMapping

/// Every listed device's mapper and what it holds. Used by `InputCore` on the input thread (and
/// by tests playing that thread).
public final class DeviceMappers {
    /// The configuration's settings for a device, given its siblings (profiles with `siblings = true`).
    public typealias Settings = @Sendable (_ device: DeviceIdentity, _ siblings: [DeviceIdentity]) -> DeviceSettings

    /// What a device's mapper produced.
    public struct Output: Equatable, Sendable {
        public var id: String
        public var commands: [MappedCommand]
    }

    private let settings: Settings
    /// Changed only through `set` and `update`, which keep `deadlines`.
    private var mappers: [String: DeviceMapper] = [:]
    /// Each mapper's `nextDeadline` (absent: none), kept by every change of `mappers`: the loop
    /// asks for the earliest after every wake-up, which then copies no mapper.
    private var deadlines: [String: Int64] = [:]
    /// Everything listed (including ignored or unopenable devices), by id: the siblings' source.
    private var listed: [String: DeviceInfo] = [:]
    /// The settings the caller decided for a device (`InputCore`: once per open, from its
    /// policy), by id; a device without them gets `settings`' answer.
    private var decisions: [String: DeviceSettings] = [:]

    public init(settings: @escaping Settings) {
        self.settings = settings
    }

    /// A device was listed (with the settings decided for it, if the caller decided them): a
    /// mapper if it is usable; siblings whose profile changes with it are released and get a
    /// mapper with their new settings (those with decided settings are decided again by the
    /// caller and come back through `changed` or `decided`).
    public func added(_ info: DeviceInfo, settings decided: DeviceSettings? = nil, wallNow: Int64) -> [Output] {
        listed[info.id] = info
        decisions[info.id] = decided
        guard info.problem == nil else { return [] }
        set(info.id, makeMapper(info))
        return remapSiblings(of: info, wallNow: wallNow)
    }

    /// A listed device changed: one with a problem is released and loses its mapper; one decided
    /// again with other settings is released and gets a mapper with them.
    public func changed(_ info: DeviceInfo, settings decided: DeviceSettings? = nil, wallNow: Int64) -> [Output] {
        listed[info.id] = info
        if info.problem == nil, mappers[info.id] != nil { return self.decided(info.id, settings: decided, wallNow: wallNow) }
        if let decided { decisions[info.id] = decided }
        if info.problem != nil {
            let released = release(info.id, wallNow: wallNow)
            set(info.id, nil)
            return released
        }
        if mappers[info.id] == nil { set(info.id, makeMapper(info)) }
        return []
    }

    /// A device is gone: what it held is released.
    public func removed(_ id: String, wallNow: Int64) -> [Output] {
        let released = release(id, wallNow: wallNow)
        set(id, nil)
        listed[id] = nil
        decisions[id] = nil
        return released
    }

    /// A listed device was decided again (reopened) with the same record: with other settings
    /// than its mapper runs with, what it holds is released and it gets a mapper with them.
    public func decided(_ id: String, settings decided: DeviceSettings?, wallNow: Int64) -> [Output] {
        guard let decided, decided != decisions[id] else { return [] }
        decisions[id] = decided
        guard mappers[id] != nil, let info = listed[id] else { return [] }
        let released = release(id, wallNow: wallNow)
        set(id, makeMapper(info))
        return released
    }

    /// One frame; nil when the device has no mapper (not read, or a problem).
    public func frame(_ id: String, _ events: [InputEvent], now: Int64, wallNow: Int64, context: FocusContext) -> [MappedCommand]? {
        update(id) { $0.process(events, now: Self.happened(events, now: now, wallNow: wallNow), context: context) }
    }

    public func gesture(_ id: String, _ gesture: Gesture, now: Int64, context: FocusContext) -> [MappedCommand] {
        update(id) { $0.process(gesture: gesture, now: now, context: context) } ?? []
    }

    /// After SYN_DROPPED (or before a reopen): everything held is released (input.md §6), then
    /// the mapper learns what is still down so those keys are swallowed, not pressed again.
    public func resync(_ id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32], wallNow: Int64) -> [MappedCommand] {
        update(id) { $0.releaseAll(timeUsec: wallNow) + $0.resync(keysDown: keysDown, absValues: absValues, timeUsec: wallNow) } ?? []
    }

    /// The device's timers due at `now`.
    public func tick(_ id: String, now: Int64) -> [MappedCommand] {
        update(id) { $0.tick(now: now) } ?? []
    }

    /// A new configuration: every device is released and gets a mapper with its new settings.
    public func reconfigure(wallNow: Int64) -> [Output] {
        var output: [Output] = []
        for id in mappers.keys.sorted() {
            output += release(id, wallNow: wallNow)
            if let info = listed[id] { set(id, makeMapper(info)) }
        }
        return output
    }

    /// The earliest timer of any device (monotonic µs).
    public var nextDeadline: Int64? { deadlines.values.min() }

    /// The devices with a timer due at `now`, by id.
    public func due(at now: Int64) -> [String] {
        deadlines.filter { $0.value <= now }.keys.sorted()
    }

    /// The keys the device's mapping uses (none without a mapper).
    public func mappedKeys(of id: String) -> Set<UInt16> { mappers[id]?.usedKeys ?? [] }

    /// The keys its pass-through device carries (input.md §11; none without a mapper).
    public func passthroughKeys(of id: String) -> Set<UInt16> { mappers[id]?.passthroughKeys ?? [] }

    /// The settings the device's mapper runs with (nil: no mapper).
    public func settings(of id: String) -> DeviceSettings? { mappers[id]?.settings }

    // MARK: internals

    /// Replaces (or with nil removes) a device's mapper.
    private func set(_ id: String, _ mapper: DeviceMapper?) {
        mappers[id] = mapper
        deadlines[id] = mapper?.nextDeadline
    }

    /// Runs `body` on the device's mapper in place, then notes its next deadline; nil when the
    /// device has no mapper.
    private func update<Result>(_ id: String, _ body: (inout DeviceMapper) -> Result) -> Result? {
        // One lookup of the id, and the mapper changed in place (a frame's path).
        guard let index = mappers.index(forKey: id) else { return nil }
        func run(_ mapper: inout DeviceMapper) -> (Result, Int64?) {
            let result = body(&mapper)
            return (result, mapper.nextDeadline)
        }
        let (result, deadline) = run(&mappers.values[index])
        deadlines[id] = deadline
        return result
    }

    private func makeMapper(_ info: DeviceInfo) -> DeviceMapper {
        var settings = decisions[info.id] ?? settings(info.identity, siblings(of: info))
        settings.deviceClass = info.deviceClass
        if settings.rotary.countsPerDetent == nil,
            let hint = info.identity.udevProperties["FOCUSD_COUNTS_PER_DETENT"].flatMap(Double.init), hint > 0
        {
            settings.rotary.countsPerDetent = hint
        }
        return DeviceMapper(identity: info.identity, settings: settings)
    }

    private func release(_ id: String, wallNow: Int64) -> [Output] {
        guard let commands = update(id, { $0.releaseAll(timeUsec: wallNow) }) else { return [] }
        return commands.isEmpty ? [] : [Output(id: id, commands: commands)]
    }

    private func remapSiblings(of info: DeviceInfo, wallNow: Int64) -> [Output] {
        guard let group = info.identity.group else { return [] }
        var output: [Output] = []
        for id in mappers.keys.sorted() where id != info.id && decisions[id] == nil {
            guard let other = listed[id], other.identity.group == group else { continue }
            let profile = settings(other.identity, siblings(of: other)).profileName
            guard profile != mappers[id]?.settings.profileName else { continue }
            output += release(id, wallNow: wallNow)
            set(id, makeMapper(other))
        }
        return output
    }

    /// The identities of the other listed nodes of `info`'s physical device (same group).
    private func siblings(of info: DeviceInfo) -> [DeviceIdentity] {
        guard let group = info.identity.group else { return [] }
        return listed.values.filter { $0.id != info.id && $0.identity.group == group }
            .sorted { $0.id < $1.id }.map(\.identity)
    }

    /// The most a frame's kernel timestamp may lag behind to count as its age (a larger lag is a
    /// clock step or a synthetic time, and the frame counts as happening now).
    public static let maxFrameAgeUsec: Int64 = 60_000_000

    /// When a frame happened on the mapper's clock: now, minus the age of its kernel timestamp
    /// (CLOCK_REALTIME). The mapper fires the timers due before a frame first; with the read time
    /// a key-up read late (focusd stopped or starved while the key went up) would come after a
    /// repeat that was due only after the key was already up.
    public static func happened(_ events: [InputEvent], now: Int64, wallNow: Int64) -> Int64 {
        guard let stamp = events.last?.timeUsec else { return now }
        let age = wallNow - stamp
        guard age > 0, age <= maxFrameAgeUsec else { return now }
        return now - age
    }
}
