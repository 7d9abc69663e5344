// Discovery without udevd: inotify on the input directory (/dev/input, or a test's directory).
import Glibc
import SystemCalls

/// A change in the watched input directory, reduced to what discovery needs.
enum DirectoryChange: Equatable {
    /// A node named `event*` was created or moved in.
    case appeared(String)
    /// Its mode, owner or ACL changed (udev applied permissions): worth retrying an open.
    case attributesChanged(String)
    /// It was deleted or moved away.
    case removed(String)
    /// The directory itself now exists (it was created after we started): enumerate it.
    case directoryAppeared
    /// The directory was removed: every node in it is gone.
    case directoryRemoved
}

/// inotify on one directory, or on its parent until the directory exists.
///
/// Not Sendable: it belongs to the input loop's thread.
final class InotifyWatcher {
    let directory: String
    private let fd: FileDescriptor
    private var directoryWatch: Int32 = -1
    private var parentWatch: Int32 = -1

    private static let directoryMask = UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)

    /// Watches `directory`, or its parent when it does not exist yet.
    init(directory: String) throws(PosixError) {
        var trimmed = directory
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.directory = trimmed
        fd = FileDescriptor(try Posix.required("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        try watch()
    }

    /// The inotify descriptor, for epoll.
    var rawFD: Int32 { fd.raw }

    /// True while the directory itself is watched (it exists).
    var watchingDirectory: Bool { directoryWatch >= 0 }

    private var parent: String {
        guard let slash = directory.lastIndex(of: "/") else { return "." }
        return slash == directory.startIndex ? "/" : String(directory[..<slash])
    }

    private var basename: String {
        directory.lastIndex(of: "/").map { String(directory[directory.index(after: $0)...]) } ?? directory
    }

    /// Watches the directory if it exists, else its parent for the directory's creation (the
    /// directory is tried again after the parent watch, so one created in between is not missed).
    /// The parent is unwatched once the directory is, so unrelated changes in it (/dev, /tmp)
    /// never wake the loop.
    private func watch() throws(PosixError) {
        if addDirectoryWatch() { return }
        if parentWatch < 0 {
            parentWatch = try Posix.required("inotify_add_watch(\(parent))") {
                inotify_add_watch(fd.raw, parent, Self.parentMask)
            }
        }
        if addDirectoryWatch() {
            _ = inotify_rm_watch(fd.raw, parentWatch)
            parentWatch = -1
        }
    }

    private func addDirectoryWatch() -> Bool {
        let result = try? Posix.syscall("inotify_add_watch(\(directory))") {
            inotify_add_watch(fd.raw, directory, Self.directoryMask)
        }
        directoryWatch = result?.value ?? -1
        return directoryWatch >= 0
    }

    /// Names of the `event*` nodes now in the directory (empty when it does not exist).
    func enumerate() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if Self.isEventNode(name) { names.append(name) }
        }
        return names.sorted()
    }

    /// Full path of a node name.
    func path(of name: String) -> String { directory == "/" ? "/\(name)" : "\(directory)/\(name)" }

    static func isEventNode(_ name: String) -> Bool { name.hasPrefix("event") }

    /// Reads the queued inotify events, until none is left.
    func readChanges() throws(PosixError) -> [DirectoryChange] {
        var changes: [DirectoryChange] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while let count = try Posix.read(fd, into: buffer, call: "read(inotify)").value, count > 0 {
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + 16)..<min(count, offset + 16 + length)])
                let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                offset += 16 + length
                try changes.append(contentsOf: interpret(wd: wd, mask: mask, name: name))
            }
        }
        return changes
    }

    private func interpret(wd: Int32, mask: UInt32, name: String) throws(PosixError) -> [DirectoryChange] {
        if wd == parentWatch && parentWatch >= 0 {
            guard name == basename, mask & UInt32(IN_ISDIR) != 0, directoryWatch < 0 else { return [] }
            try watch()
            return directoryWatch >= 0 ? [.directoryAppeared] : []
        }
        guard wd == directoryWatch else { return [] }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
            if directoryWatch >= 0 { _ = inotify_rm_watch(fd.raw, directoryWatch) }
            directoryWatch = -1
            try watch()
            return directoryWatch >= 0 ? [.directoryRemoved, .directoryAppeared] : [.directoryRemoved]
        }
        guard Self.isEventNode(name) else { return [] }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { return [.appeared(name)] }
        if mask & UInt32(IN_ATTRIB) != 0 { return [.attributesChanged(name)] }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { return [.removed(name)] }
        return []
    }
}

@available(*, unavailable)
extension InotifyWatcher: Sendable {}
