import Testing

@testable import InputMapping

// Repeat (own and an IR remote's), SYN_DROPPED, long-press and chords are shown as text in
// Scenarios/*.scenario (ScenarioTests.swift); what needs the mapper's API directly stays here.
@Suite("Keys: default map, typing, repeat")
struct KeyMappingTests {
    @Test("the keyboard default map covers every command of input.md §3")
    func keyboardDefaults() {
        let expected: [(UInt16, String)] = [
            (E.KEY_UP, "up"), (E.KEY_DOWN, "down"), (E.KEY_LEFT, "left"), (E.KEY_RIGHT, "right"),
            (E.KEY_TAB, "next"), (E.KEY_NEXT, "next"), (E.KEY_PREVIOUS, "previous"),
            (E.KEY_ENTER, "select"), (E.KEY_KPENTER, "select"), (E.KEY_OK, "select"), (E.KEY_SELECT, "select"),
            (E.KEY_SPACE, "select"), (E.KEY_ESC, "back"), (E.KEY_BACK, "back"), (E.KEY_BACKSPACE, "back"),
            (E.KEY_HOMEPAGE, "home"), (E.KEY_HOME, "home"), (E.KEY_MENU, "menu"), (E.KEY_CONTEXT_MENU, "menu"),
            (E.KEY_COMPOSE, "menu"), (E.KEY_SEARCH, "search"), (E.KEY_FIND, "search"),
            (E.KEY_PLAYPAUSE, "playPause"), (E.KEY_PLAY, "playPause"), (E.KEY_PAUSE, "playPause"),
            (E.KEY_CHANNELUP, "channelUp"), (E.KEY_CHANNELDOWN, "channelDown"), (E.KEY_PAGEUP, "channelUp"),
            (E.KEY_PAGEDOWN, "channelDown"), (E.KEY_INFO, "info"),
        ]
        for (code, command) in expected {
            var rig = Rig(TestDevices.usbKeyboard)
            #expect(Rig.names(rig.key(code, 1)) == ["\(command) press"], "\(EventCode.name(type: E.EV_KEY, code: code)!)")
            #expect(Rig.names(rig.key(code, 0)) == ["\(command) release"])
        }
        var rig = Rig(TestDevices.usbKeyboard)
        #expect(rig.key(E.KEY_A, 1).isEmpty)
        #expect(rig.key(E.KEY_A, 0).isEmpty)
    }

    @Test("the remote default map: OK selects, BACK goes back, channel keys, info")
    func remoteDefaults() {
        var rig = Rig(TestDevices.irRemote)
        #expect(Rig.names(rig.key(E.KEY_OK, 1) + rig.key(E.KEY_OK, 0)) == ["select press", "select release"])
        #expect(Rig.names(rig.key(E.KEY_BACK, 1) + rig.key(E.KEY_BACK, 0)) == ["back press", "back release"])
        #expect(Rig.names(rig.key(E.KEY_CHANNELUP, 1) + rig.key(E.KEY_CHANNELUP, 0)) == ["channelUp press", "channelUp release"])
        #expect(Rig.names(rig.key(E.KEY_INFO, 1) + rig.key(E.KEY_INFO, 0)) == ["info press", "info release"])
        #expect(rig.key(E.KEY_NUMERIC_5, 1).isEmpty)
    }

    @Test("a command's time is the kernel time of the event that produced it")
    func eventTimes() {
        var rig = Rig(TestDevices.usbKeyboard)
        rig.now = 5000
        let frame = [InputEvent(type: E.EV_KEY, code: E.KEY_ENTER, value: 1, timeUsec: 42_000_123)]
        let commands = rig.mapper.process(frame, now: rig.now, context: FocusContext())
        #expect(commands == [MappedCommand(command: "select", phase: .press, eventTimeUsec: 42_000_123)])
    }

    @Test("typing keys are unmapped while a text field has focus; navigation keys are not")
    func typingSuppression() {
        var rig = Rig(TestDevices.usbKeyboard)
        rig.context = FocusContext(typingSuppressed: true)
        for code in [E.KEY_SPACE, E.KEY_BACKSPACE, E.KEY_HOME, E.KEY_DELETE, E.KEY_END, E.KEY_A, E.KEY_5] {
            #expect(rig.key(code, 1).isEmpty)
            #expect(rig.key(code, 0).isEmpty)
        }
        #expect(Rig.names(rig.key(E.KEY_DOWN, 1)) == ["down press"])
        #expect(Rig.names(rig.key(E.KEY_DOWN, 0)) == ["down release"])
        #expect(Rig.names(rig.key(E.KEY_ESC, 1)) == ["back press"])
        rig.context = FocusContext()
        #expect(Rig.names(rig.key(E.KEY_SPACE, 1)) == ["select press"])
    }

    @Test("a key pressed before a text field took focus still gets its release")
    func releaseAfterContextChange() {
        var rig = Rig(TestDevices.usbKeyboard)
        #expect(Rig.names(rig.key(E.KEY_SPACE, 1)) == ["select press"])
        rig.context = FocusContext(typingSuppressed: true)
        #expect(Rig.names(rig.key(E.KEY_SPACE, 0)) == ["select release"])
    }

    @Test("Shift+Tab is previous, Tab alone is next, and the release matches the press")
    func shiftTab() {
        var rig = Rig(TestDevices.usbKeyboard)
        #expect(rig.key(E.KEY_LEFTSHIFT, 1).isEmpty)
        #expect(Rig.names(rig.key(E.KEY_TAB, 1)) == ["previous press"])
        _ = rig.key(E.KEY_LEFTSHIFT, 0)
        #expect(Rig.names(rig.key(E.KEY_TAB, 0)) == ["previous release"])
        #expect(Rig.names(rig.key(E.KEY_TAB, 1) + rig.key(E.KEY_TAB, 0)) == ["next press", "next release"])
        _ = rig.key(E.KEY_RIGHTSHIFT, 1)
        #expect(Rig.names(rig.key(E.KEY_TAB, 1)) == ["previous press"])
    }

    @Test("a late tick sends one repeat, not a burst, and the repeat times follow the kernel press time")
    func lateTick() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_RIGHT, 1)
        rig.now = 1_000_000  // the loop stalled for a second
        let commands = Rig.describe(rig.mapper.tick(now: rig.now))
        #expect(commands == ["right repeat 400"])
        #expect(rig.mapper.nextDeadline == 1_100_000)
    }

    @Test("a remote without EV_REP (no kernel repeats) gets focusd's own repeat timing")
    func remoteWithoutKernelRepeat() {
        var remote = TestDevices.irRemote
        remote.name = "BT TV Remote"
        remote.capabilities.kernelRepeat = false
        var rig = Rig(remote)
        #expect(rig.mapper.settings.deviceClass == .remote)
        _ = rig.key(E.KEY_LEFT, 1)
        #expect(rig.advance(ms: 500) == ["left repeat 400", "left repeat 500"])
        #expect(rig.advance(ms: 5000).count > 40)  // no lost-key-up release without kernel repeats
        #expect(Rig.names(rig.key(E.KEY_LEFT, 0)) == ["left release"])
    }

    @Test("unplug while a direction repeats: one release, then nothing")
    func unplugDuringRepeat() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_LEFT, 1)
        #expect(rig.advance(ms: 450) == ["left repeat 400"])
        let released = Rig.describe(rig.mapper.releaseAll(timeUsec: rig.kernelNow))
        #expect(released == ["left release 450"])
        #expect(rig.mapper.nextDeadline == nil)
        #expect(rig.advance(ms: 5000).isEmpty)
        #expect(rig.key(E.KEY_LEFT, 0).isEmpty)
    }

    @Test("resync after SYN_DROPPED releases keys no longer down and presses nothing new")
    func resync() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_UP, 1)
        _ = rig.key(E.KEY_ENTER, 1)
        _ = rig.advance(ms: 100)
        // During the drop: KEY_UP went up, KEY_ESC went down.
        let commands = Rig.describe(rig.mapper.resync(keysDown: [E.KEY_ENTER, E.KEY_ESC], absValues: [:], timeUsec: rig.kernelNow))
        #expect(commands == ["up release 100"])
        #expect(rig.advance(ms: 2000).isEmpty)
        #expect(rig.key(E.KEY_ESC, 0).isEmpty)  // its press was never sent
        #expect(rig.key(E.KEY_ENTER, 0) == ["select release 2100"])
    }

    @Test("resync stops the repeat of a direction still held; its release still comes")
    func resyncStillHeld() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_DOWN, 1)
        #expect(rig.advance(ms: 400) == ["down repeat 400"])
        #expect(rig.mapper.resync(keysDown: [E.KEY_DOWN], absValues: [:], timeUsec: rig.kernelNow).isEmpty)
        #expect(rig.advance(ms: 1000).isEmpty)
        #expect(rig.key(E.KEY_DOWN, 0) == ["down release 1400"])
    }

    @Test("releaseAll then resync (input.md §6): every press gets exactly one release")
    func releaseAllThenResync() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_DOWN, 1)
        #expect(Rig.describe(rig.mapper.releaseAll(timeUsec: rig.kernelNow)) == ["down release 0"])
        #expect(rig.mapper.resync(keysDown: [E.KEY_DOWN], absValues: [:], timeUsec: rig.kernelNow).isEmpty)
        #expect(rig.key(E.KEY_DOWN, 0).isEmpty)
        #expect(rig.key(E.KEY_DOWN, 1) == ["down press 0"])
    }
}

@Suite("Long-press and chords")
struct LongPressChordTests {
    static var profile: Profile {
        var profile = Profile(name: "remote extras")
        profile.longPresses = [LongPress(code: E.KEY_BACK, command: "home", durationMs: 800)]
        profile.chords = [Chord(codes: [E.KEY_MENU, E.KEY_INFO], command: "search", windowMs: 50)]
        return profile
    }

    @Test("SYN_DROPPED while a long-press is pending: nothing fires afterwards")
    func longPressDropped() {
        var rig = Rig(TestDevices.usbKeyboard, profile: Self.profile)
        _ = rig.key(E.KEY_BACK, 1)
        #expect(rig.mapper.resync(keysDown: [E.KEY_BACK], absValues: [:], timeUsec: rig.kernelNow).isEmpty)
        #expect(rig.advance(ms: 2000).isEmpty)
        #expect(rig.key(E.KEY_BACK, 0).isEmpty)
    }
}
