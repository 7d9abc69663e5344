import Testing

@testable import InputMapping

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

    @Test("a held arrow repeats after 400 ms, every 100 ms, every 50 ms after 2 s; kernel repeats are ignored")
    func ownRepeat() {
        var rig = Rig(TestDevices.usbKeyboard)
        #expect(rig.key(E.KEY_DOWN, 1) == ["down press 0"])
        #expect(rig.advance(ms: 399).isEmpty)
        #expect(rig.mapper.nextDeadline == 400_000)
        var rig2 = Rig(TestDevices.usbKeyboard)
        _ = rig2.key(E.KEY_DOWN, 1)
        #expect(rig2.advance(ms: 600) == ["down repeat 400", "down repeat 500", "down repeat 600"])
        // Kernel autorepeat (value 2) adds nothing.
        #expect(rig2.key(E.KEY_DOWN, 2).isEmpty)
        let later = rig2.advance(ms: 1500)  // up to 2100 ms
        #expect(later.first == "down repeat 700")
        #expect(later.contains("down repeat 2000"))
        #expect(later.suffix(2) == ["down repeat 2050", "down repeat 2100"])
        #expect(rig2.key(E.KEY_DOWN, 0) == ["down release 2100"])
        #expect(rig2.advance(ms: 1000).isEmpty)
        #expect(rig2.mapper.nextDeadline == nil)
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

    @Test("select and back do not repeat")
    func nonDirectional() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_ENTER, 1)
        #expect(rig.advance(ms: 3000).isEmpty)
        #expect(rig.key(E.KEY_ENTER, 0) == ["select release 3000"])
    }

    @Test("profile repeat timing and command map overrides apply")
    func profileOverrides() {
        var profile = Profile(name: "custom")
        profile.repeat.delayMs = 250
        profile.repeat.intervalMs = 30
        profile.commands = [E.KEY_A: "left", E.KEY_ESC: ""]
        var rig = Rig(TestDevices.usbKeyboard, profile: profile)
        #expect(rig.key(E.KEY_ESC, 1).isEmpty)
        #expect(rig.key(E.KEY_A, 1) == ["left press 0"])
        #expect(rig.advance(ms: 310) == ["left repeat 250", "left repeat 280", "left repeat 310"])
    }

    @Test("IR remote: each kernel repeat is one repeat and key-up ends it; no timer runs")
    func remoteKernelRepeat() {
        var rig = Rig(TestDevices.irRemote)
        #expect(rig.key(E.KEY_DOWN, 1) == ["down press 0"])
        #expect(rig.advance(ms: 500).isEmpty)  // no own repeat
        #expect(rig.key(E.KEY_DOWN, 2) == ["down repeat 500"])
        _ = rig.advance(ms: 125)
        #expect(rig.key(E.KEY_DOWN, 2) == ["down repeat 625"])
        _ = rig.advance(ms: 200)  // rc-core's key-up after its timeout
        #expect(rig.key(E.KEY_DOWN, 0) == ["down release 825"])
        #expect(rig.key(E.KEY_DOWN, 2).isEmpty)  // a stray repeat after the release
        #expect(rig.advance(ms: 2000).isEmpty)
    }

    @Test("IR remote: a lost key-up is released after keyUpTimeout and the late key-up is swallowed")
    func remoteKeyUpTimeout() {
        var rig = Rig(TestDevices.irRemote)
        _ = rig.key(E.KEY_UP, 1)
        _ = rig.advance(ms: 500)
        #expect(rig.key(E.KEY_UP, 2) == ["up repeat 500"])
        #expect(rig.advance(ms: 999).isEmpty)
        #expect(rig.advance(ms: 1) == ["up release 1500"])
        #expect(rig.key(E.KEY_UP, 2).isEmpty)
        #expect(rig.key(E.KEY_UP, 0).isEmpty)
        #expect(rig.key(E.KEY_UP, 1) == ["up press 1500"])
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

    @Test("a remote's OK does not repeat on kernel repeats")
    func remoteSelectNoRepeat() {
        var rig = Rig(TestDevices.irRemote)
        _ = rig.key(E.KEY_OK, 1)
        _ = rig.advance(ms: 500)
        #expect(rig.key(E.KEY_OK, 2).isEmpty)
        #expect(rig.key(E.KEY_OK, 0) == ["select release 500"])
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

    @Test("SYN_DROPPED in the middle of a press releases it, and nothing repeats afterwards")
    func synDroppedInFrame() {
        var rig = Rig(TestDevices.usbKeyboard)
        _ = rig.key(E.KEY_UP, 1)
        _ = rig.advance(ms: 100)
        #expect(rig.frame([(E.EV_SYN, E.SYN_DROPPED, 0)]) == ["up release 100"])
        #expect(rig.advance(ms: 3000).isEmpty)
        #expect(rig.key(E.KEY_UP, 0).isEmpty)
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

    @Test("KEY_BACK held 800 ms is home; released sooner it is back")
    func longPress() {
        var rig = Rig(TestDevices.usbKeyboard, profile: Self.profile)
        #expect(rig.key(E.KEY_BACK, 1).isEmpty)
        #expect(rig.advance(ms: 300).isEmpty)
        #expect(rig.key(E.KEY_BACK, 0) == ["back press 0", "back release 300"])

        #expect(rig.key(E.KEY_BACK, 1).isEmpty)
        #expect(rig.advance(ms: 799).isEmpty)
        #expect(rig.advance(ms: 1) == ["home press 1100"])
        #expect(rig.advance(ms: 1000).isEmpty)  // home does not repeat
        #expect(rig.key(E.KEY_BACK, 0) == ["home release 2100"])
    }

    @Test("two keys pressed within the window are the chord, with one press and one release")
    func chord() {
        var rig = Rig(TestDevices.usbKeyboard, profile: Self.profile)
        #expect(rig.key(E.KEY_MENU, 1).isEmpty)
        _ = rig.advance(ms: 20)
        #expect(rig.key(E.KEY_INFO, 1) == ["search press 20"])
        _ = rig.advance(ms: 200)
        #expect(rig.key(E.KEY_MENU, 0) == ["search release 220"])
        #expect(rig.key(E.KEY_INFO, 0).isEmpty)
    }

    @Test("a chord key alone acts after the window, or as a tap when released within it")
    func chordKeyAlone() {
        var rig = Rig(TestDevices.usbKeyboard, profile: Self.profile)
        _ = rig.key(E.KEY_MENU, 1)
        #expect(rig.advance(ms: 60) == ["menu press 0"])
        // MENU is no longer pending, so INFO waits for its own window and is plain info.
        #expect(rig.key(E.KEY_INFO, 1).isEmpty)
        #expect(rig.advance(ms: 50) == ["info press 60"])
        _ = rig.advance(ms: 50)
        #expect(rig.key(E.KEY_INFO, 0) == ["info release 160"])
        #expect(rig.key(E.KEY_MENU, 0) == ["menu release 160"])

        var tap = Rig(TestDevices.usbKeyboard, profile: Self.profile)
        _ = tap.key(E.KEY_INFO, 1)
        _ = tap.advance(ms: 10)
        #expect(tap.key(E.KEY_INFO, 0) == ["info press 0", "info release 10"])
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
