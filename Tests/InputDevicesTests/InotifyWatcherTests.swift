import Glibc
import Testing

@testable import InputDevices

@Suite("inotify discovery of a directory")
struct InotifyWatcherTests {
    @Test("created, attribute-changed and deleted event nodes are reported; other names are not")
    func reportsNodeChanges() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let watcher = try InotifyWatcher(directory: dir.path)
        #expect(watcher.watchingDirectory)
        dir.touch("event0")
        dir.touch("mouse0")
        chmod(dir.file("event0"), 0o600)
        unlink(dir.file("event0"))
        let changes = try watcher.readChanges()
        #expect(changes.first == .appeared("event0"))
        #expect(changes.contains(.attributesChanged("event0")))
        #expect(changes.last == .removed("event0"))
        #expect(!changes.contains { if case .appeared("mouse0") = $0 { true } else { false } })
    }

    @Test("a node moved into the directory appears; one moved out is removed")
    func movedNodes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.mkdir("input")
        let watcher = try InotifyWatcher(directory: dir.file("input"))
        dir.touch("event5")
        rename(dir.file("event5"), dir.file("input/event5"))
        rename(dir.file("input/event5"), dir.file("event6"))
        #expect(try watcher.readChanges() == [.appeared("event5"), .removed("event5")])
    }

    @Test("a directory that does not exist yet is watched from its parent until it is created")
    func directoryCreatedLater() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let watcher = try InotifyWatcher(directory: dir.file("input"))
        #expect(!watcher.watchingDirectory)
        #expect(watcher.enumerate().isEmpty)
        #expect(try watcher.readChanges().isEmpty)
        dir.mkdir("input")
        #expect(try watcher.readChanges() == [.directoryAppeared])
        #expect(watcher.watchingDirectory)
        dir.touch("input/event1")
        #expect(try watcher.readChanges() == [.appeared("event1")])
        #expect(watcher.enumerate() == ["event1"])
    }

    @Test("removing the directory reports it and goes back to watching the parent")
    func directoryRemoved() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.mkdir("input")
        let watcher = try InotifyWatcher(directory: dir.file("input"))
        rmdir(dir.file("input"))
        let changes = try watcher.readChanges()
        #expect(changes == [.directoryRemoved])
        #expect(!watcher.watchingDirectory)
        dir.mkdir("input")
        #expect(try watcher.readChanges() == [.directoryAppeared])
    }

    @Test("enumeration lists only event nodes, sorted")
    func enumeration() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for name in ["event10", "event2", "js0", "by-id"] { dir.touch(name) }
        #expect(try InotifyWatcher(directory: dir.path).enumerate() == ["event10", "event2"])
    }
}
