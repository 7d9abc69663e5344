import Glibc

/// A virtual input device made through /dev/uinput, for the tests that run in the QEMU guest.
///
/// The CLibevdev module map only exports <libevdev/libevdev.h>, so the few libevdev and
/// libevdev-uinput calls are resolved with dlsym from the already linked libevdev.
final class Uinput {
    private typealias NewFn = @convention(c) () -> OpaquePointer?
    private typealias FreeFn = @convention(c) (OpaquePointer?) -> Void
    private typealias SetNameFn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void
    private typealias EnableTypeFn = @convention(c) (OpaquePointer?, UInt32) -> Int32
    private typealias EnableCodeFn = @convention(c) (OpaquePointer?, UInt32, UInt32, UnsafeRawPointer?) -> Int32
    private typealias CreateFn = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias DevnodeFn = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias WriteFn = @convention(c) (OpaquePointer?, UInt32, UInt32, Int32) -> Int32
    private typealias DestroyFn = @convention(c) (OpaquePointer?) -> Void
    private typealias EnablePropertyFn = @convention(c) (OpaquePointer?, UInt32) -> Int32

    private static func symbol<F>(_ name: String, _: F.Type) -> F {
        let handle = dlopen(nil, RTLD_NOW)
        return unsafeBitCast(dlsym(handle, name)!, to: F.self)
    }

    static var available: Bool { access("/dev/uinput", W_OK) == 0 }

    private let uinput: OpaquePointer
    let node: String
    /// The name it was created with; with `node` it tells this device from an earlier one at the
    /// same node (event numbers are reused as soon as a device goes).
    let name: String

    struct CreationFailed: Error { var code: Int32 }

    /// Creates a device with these keys (EV_KEY codes) and relative axes; `name` must not start
    /// with "focusd" (focusd ignores its own virtual devices).
    /// An absolute axis: range and resolution (units per mm).
    struct Axis {
        var code: UInt16
        var minimum: Int32
        var maximum: Int32
        var resolution: Int32 = 0
    }

    init(name: String, keys: [UInt16], relativeAxes: [UInt16] = [], absoluteAxes: [Axis] = [], properties: [UInt16] = []) throws {
        self.name = name
        let device = Self.symbol("libevdev_new", NewFn.self)()
        defer { Self.symbol("libevdev_free", FreeFn.self)(device) }
        Self.symbol("libevdev_set_name", SetNameFn.self)(device, name)
        let enableType = Self.symbol("libevdev_enable_event_type", EnableTypeFn.self)
        let enableCode = Self.symbol("libevdev_enable_event_code", EnableCodeFn.self)
        _ = enableType(device, 1)
        for key in keys { _ = enableCode(device, 1, UInt32(key), nil) }
        if !relativeAxes.isEmpty {
            _ = enableType(device, 2)
            for axis in relativeAxes { _ = enableCode(device, 2, UInt32(axis), nil) }
        }
        if !absoluteAxes.isEmpty {
            _ = enableType(device, 3)
            for axis in absoluteAxes {
                // struct input_absinfo { value, minimum, maximum, fuzz, flat, resolution }
                var info: [Int32] = [axis.minimum, axis.minimum, axis.maximum, 0, 0, axis.resolution]
                _ = info.withUnsafeMutableBytes { enableCode(device, 3, UInt32(axis.code), $0.baseAddress) }
            }
        }
        for property in properties { _ = Self.symbol("libevdev_enable_property", EnablePropertyFn.self)(device, UInt32(property)) }
        var created: OpaquePointer?
        let status = Self.symbol("libevdev_uinput_create_from_device", CreateFn.self)(device, -2, &created)
        guard status == 0, let created else { throw CreationFailed(code: status) }
        uinput = created
        node = String(cString: Self.symbol("libevdev_uinput_get_devnode", DevnodeFn.self)(created)!)
    }

    /// Writes one event (EV_SYN SYN_REPORT is type 0, code 0).
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        _ = Self.symbol("libevdev_uinput_write_event", WriteFn.self)(uinput, UInt32(type), UInt32(code), value)
    }

    /// A key event followed by SYN_REPORT.
    func key(_ code: UInt16, _ value: Int32) {
        emit(1, code, value)
        emit(0, 0, 0)
    }

    func destroy() {
        Self.symbol("libevdev_uinput_destroy", DestroyFn.self)(uinput)
    }
}
