// Splits an evdev event stream into frames, and turns SYN_DROPPED into one resync.
import InputMapping
import SystemCalls

/// What one read of an evdev node produced.
enum EvdevReading: Equatable, Sendable {
    /// The events of one frame, without its SYN_REPORT.
    case frame([InputEvent])
    /// SYN_DROPPED was seen; the partial frame was discarded and this is the device's state now.
    case resync(keysDown: Set<UInt16>, absValues: [UInt16: Int32])
}

/// One step of libevdev_next_event, as the assembler needs it.
enum NextEvent: Equatable {
    /// An event in normal mode (or, in sync mode, a sync event).
    case event(InputEvent)
    /// LIBEVDEV_READ_STATUS_SYNC: the kernel dropped events; sync events follow in sync mode.
    case dropped
}

/// Groups events per SYN_REPORT (empty frames are dropped), keeping a partial frame between reads; on SYN_DROPPED drops the
/// partial frame, drains the sync events (their effect is in the device state) and reports the
/// state. The event source is injected, so this runs on the host without a device.
struct FrameAssembler {
    private static let synType: UInt16 = 0x00
    private static let synReport: UInt16 = 0x00

    /// Events of the frame being read, until its SYN_REPORT.
    private(set) var pending: [InputEvent] = []

    /// Reads until the source would block (returns nil).
    ///
    /// - Parameters:
    ///   - next: the next event in normal (`sync == false`) or sync mode; nil when none is left.
    ///   - state: the device's key and axis state after a sync.
    mutating func read(
        next: (_ sync: Bool) throws(PosixError) -> NextEvent?,
        state: () -> (keysDown: Set<UInt16>, absValues: [UInt16: Int32])
    ) throws(PosixError) -> [EvdevReading] {
        var readings: [EvdevReading] = []
        while let step = try next(false) {
            switch step {
            case .dropped:
                pending.removeAll()
                while try next(true) != nil {}
                let now = state()
                readings.append(.resync(keysDown: now.keysDown, absValues: now.absValues))
            case .event(let event) where event.type == Self.synType:
                // An empty frame (a lone SYN_REPORT) carries nothing for the mapper.
                if event.code == Self.synReport && !pending.isEmpty {
                    readings.append(.frame(pending))
                    pending.removeAll()
                }
            case .event(let event):
                pending.append(event)
            }
        }
        return readings
    }
}
