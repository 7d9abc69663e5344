// EVIOCGKEY: which keys the kernel has down right now.
import CInputLinux

/// The kernel's key state of an evdev node, for decisions that must not rely on libevdev's copy,
/// which is only as new as the last event read: grab deferral (input.md §6) asks the kernel.
enum KernelKeys {
    /// The keys down on the evdev node `fd`, or nil when the ioctl fails (not an evdev node, the
    /// device is gone).
    static func down(fd: Int32) -> Set<UInt16>? {
        var bits = [UInt8](repeating: 0, count: cinput_key_bitmap_bytes)
        let written = bits.withUnsafeMutableBufferPointer { cinput_evdev_get_keys(fd, $0.baseAddress, $0.count) }
        guard written >= 0 else { return nil }
        return decode(bits.prefix(Int(written)))
    }

    /// The key codes set in an EVIOCGKEY bitmap: bit `n % 8` of byte `n / 8` is code `n`.
    static func decode(_ bitmap: some Collection<UInt8>) -> Set<UInt16> {
        var keys: Set<UInt16> = []
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                keys.insert(UInt16(index * 8 + bit))
            }
        }
        return keys
    }
}
