// libinput: the one file that holds libinput pointers. Used for touch surfaces only (input.md §2).
//
// The path backend needs udevd: libinput reads the udev database (ID_INPUT_TOUCHPAD, size hints,
// quirks) for every device it is given, so the loop only picks this backend when udevd runs.
//
// libinput is not linked: the first context loads it (CLibinputLoader, with the prototypes of
// libinput's own header), so a daemon without touch surfaces does not map libinput, libwacom and
// GLib (1.3 MiB resident, ServiceBench (b)). Every call goes through `api`.
import CLibinputLoader
import Glibc
import InputMapping
import SystemCalls

/// A libinput path-backend context fed with nodes by focusd's own discovery.
///
/// Not Sendable: it belongs to the input loop's thread.
final class LibinputContext {
    private let context: OpaquePointer
    /// node → libinput_device (referenced), and back.
    private var devices: [String: OpaquePointer] = [:]
    private var reducers: [String: GestureReducer] = [:]

    /// open/close callbacks: libinput opens nodes through us, non-blocking and close-on-exec.
    nonisolated(unsafe) private static let interface: UnsafeMutablePointer<libinput_interface> = {
        let pointer = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        pointer.initialize(to: libinput_interface(
            open_restricted: { path, flags, _ in
                guard let path else { return -EINVAL }
                // libinput asks for O_RDWR; focusd's group may only read (udev/ rules), and
                // reading is all a touch surface needs, so fall back to read-only.
                let readOnly = (flags & ~O_ACCMODE) | O_RDONLY
                for mode in flags & O_ACCMODE == O_RDONLY ? [flags] : [flags, readOnly] {
                    do {
                        return try Posix.required("open(\(String(cString: path)))") { open(path, mode | O_CLOEXEC) }
                    } catch let error as PosixError {
                        if !error.isPermissionDenied || mode == readOnly { return -error.errno }
                    } catch {
                        return -EIO
                    }
                }
                return -EACCES
            },
            close_restricted: { fd, _ in _ = close(fd) }
        ))
        return pointer
    }()

    /// libinput's functions, resolved when the first context was made.
    private let api: focusd_libinput

    /// Loads libinput if this is the first context; fails with `LibinputUnavailable` when the
    /// library cannot be loaded.
    init() throws {
        var reason = [CChar](repeating: 0, count: 256)
        guard let table = focusd_libinput_load(&reason, UInt(reason.count)) else {
            throw LibinputUnavailable(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        api = table.pointee
        guard let context = api.libinput_path_create_context(Self.interface, nil) else {
            throw PosixError(call: "libinput_path_create_context", errno: ENOMEM)
        }
        self.context = context
    }

    deinit {
        for device in devices.values { _ = api.libinput_device_unref(device) }
        _ = api.libinput_unref(context)
    }

    /// libinput's epoll descriptor.
    var fd: Int32 { api.libinput_get_fd(context) }

    /// Starts reading `node` with tapping enabled (a tap is a click, i.e. select).
    func add(node: String) throws(PosixError) {
        guard devices[node] == nil else { return }
        guard let device = api.libinput_path_add_device(context, node) else {
            // libinput logs the cause; the open callback's errno is not returned to us.
            throw PosixError(call: "libinput_path_add_device(\(node))", errno: access(node, R_OK) == 0 ? ENODEV : EACCES)
        }
        _ = api.libinput_device_ref(device)
        _ = api.libinput_device_config_tap_set_enabled(device, LIBINPUT_CONFIG_TAP_ENABLED)
        devices[node] = device
        reducers[node] = GestureReducer()
    }

    /// Stops reading `node`.
    func remove(node: String) {
        guard let device = devices.removeValue(forKey: node) else { return }
        reducers[node] = nil
        api.libinput_path_remove_device(device)
        _ = api.libinput_device_unref(device)
    }

    /// The earliest time a pointer burst ends (monotonic µs), for the loop's timer.
    var deadline: Int64? { reducers.values.compactMap(\.deadline).min() }

    /// Processes libinput's pending events into gestures, with realtime timestamps.
    func dispatch() throws(PosixError) -> [(node: String, gesture: Gesture)] {
        _ = try Posix.negatedErrno("libinput_dispatch") { api.libinput_dispatch(context) }
        var results: [(node: String, gesture: Gesture)] = []
        while let event = api.libinput_get_event(context) {
            defer { api.libinput_event_destroy(event) }
            guard let device = api.libinput_event_get_device(event),
                let node = devices.first(where: { $0.value == device })?.key,
                let (sample, time) = sample(event)
            else { continue }
            for gesture in reducers[node, default: GestureReducer()].handle(sample, at: time) {
                results.append((node, Self.realtime(gesture)))
            }
        }
        return results
    }

    /// Ends pointer bursts whose gap elapsed by the monotonic time `now`.
    func expire(now: Int64) -> [(node: String, gesture: Gesture)] {
        var results: [(node: String, gesture: Gesture)] = []
        for node in reducers.keys.sorted() {
            for gesture in reducers[node]!.expire(now: now) { results.append((node, Self.realtime(gesture))) }
        }
        return results
    }

    /// libinput's unaccelerated deltas are in 1000-dpi units: 0.0254 mm each.
    private static let millimetresPerUnit = 0.0254

    /// The sample an event stands for; the typed accessors are only called for their own event
    /// types (libinput reports any other call as a client bug).
    private func sample(_ event: OpaquePointer) -> (GestureReducer.Sample, Int64)? {
        let type = api.libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE, LIBINPUT_EVENT_GESTURE_SWIPE_END:
            guard let gesture = api.libinput_event_get_gesture_event(event) else { return nil }
            let time = Int64(api.libinput_event_gesture_get_time_usec(gesture))
            switch type {
            case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN:
                return (.swipeBegin(fingers: Int(api.libinput_event_gesture_get_finger_count(gesture))), time)
            case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE:
                return (.swipeUpdate(
                    dx: api.libinput_event_gesture_get_dx_unaccelerated(gesture) * Self.millimetresPerUnit,
                    dy: api.libinput_event_gesture_get_dy_unaccelerated(gesture) * Self.millimetresPerUnit), time)
            default:
                return (.swipeEnd(cancelled: api.libinput_event_gesture_get_cancelled(gesture) != 0), time)
            }
        case LIBINPUT_EVENT_POINTER_MOTION:
            guard let pointer = api.libinput_event_get_pointer_event(event) else { return nil }
            return (.pointerMotion(
                dx: api.libinput_event_pointer_get_dx_unaccelerated(pointer) * Self.millimetresPerUnit,
                dy: api.libinput_event_pointer_get_dy_unaccelerated(pointer) * Self.millimetresPerUnit),
                Int64(api.libinput_event_pointer_get_time_usec(pointer)))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let pointer = api.libinput_event_get_pointer_event(event) else { return nil }
            let pressed = api.libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED
            return (pressed ? .buttonPress : .buttonRelease, Int64(api.libinput_event_pointer_get_time_usec(pointer)))
        default:
            return nil
        }
    }

    /// libinput stamps events with CLOCK_MONOTONIC; focusd's commands carry CLOCK_REALTIME.
    private static func realtime(_ gesture: Gesture) -> Gesture {
        let offset = Posix.realtimeUsec() - Posix.monotonicUsec()
        switch gesture {
        case .swipe(let dx, let dy, let t): return .swipe(dx: dx, dy: dy, timeUsec: t + offset)
        case .tap(let t): return .tap(timeUsec: t + offset)
        }
    }
}

@available(*, unavailable)
extension LibinputContext: Sendable {}

/// libinput could not be loaded (not installed, or too old to have a function focusd calls).
struct LibinputUnavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
