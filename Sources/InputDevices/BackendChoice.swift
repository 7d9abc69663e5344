import InputMapping

// Which reader a device gets (input.md §2): libinput for touch surfaces, libevdev for the rest.

/// The reader chosen for a device, or why it cannot be used.
enum BackendChoice: Equatable {
    /// Read with this backend.
    case read(Backend)
    /// Listed, not opened: the device needs something this machine does not have.
    case unusable(problem: String)

    /// The problem of a touch surface when udevd does not run.
    static let libinputNeedsUdevd =
        "libinput needs udevd, which does not run: a touchpad's gestures come only through libinput"

    /// Decides from the class, a backend forced by config, and whether udevd runs.
    ///
    /// A touchpad gives nothing through libevdev (its default map has no keys and its finger
    /// tracking is libinput's), so without udevd it is unusable unless config forces libevdev.
    static func decide(_ deviceClass: DeviceClass, forced: Backend?, udevRuns: Bool) -> BackendChoice {
        let wanted = forced ?? (deviceClass == .touchpad ? .libinput : .libevdev)
        guard wanted == .libinput else { return .read(.libevdev) }
        return udevRuns ? .read(.libinput) : .unusable(problem: libinputNeedsUdevd)
    }
}
