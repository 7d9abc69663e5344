import InputMapping
import Testing

@testable import InputDevices

@Suite("Touchpad gestures")
struct GestureReducerTests {
    @Test("a three-finger swipe yields its total motion when it ends")
    func swipe() {
        var reducer = GestureReducer()
        #expect(reducer.handle(.swipeBegin(fingers: 3), at: 0).isEmpty)
        #expect(reducer.handle(.swipeUpdate(dx: 4, dy: 1), at: 10).isEmpty)
        #expect(reducer.handle(.swipeUpdate(dx: 6, dy: -0.5), at: 20).isEmpty)
        #expect(reducer.handle(.swipeEnd(cancelled: false), at: 30) == [.swipe(dx: 10, dy: 0.5, timeUsec: 30)])
    }

    @Test("a cancelled swipe yields nothing")
    func cancelled() {
        var reducer = GestureReducer()
        _ = reducer.handle(.swipeBegin(fingers: 4), at: 0)
        _ = reducer.handle(.swipeUpdate(dx: 0, dy: 20), at: 10)
        #expect(reducer.handle(.swipeEnd(cancelled: true), at: 20).isEmpty)
    }

    @Test("pointer motion in one burst is one swipe, ended by the gap at the deadline")
    func pointerBurst() {
        var reducer = GestureReducer(burstGapUsec: 80_000, minimumDistance: 3)
        _ = reducer.handle(.pointerMotion(dx: 0, dy: -2), at: 1_000)
        _ = reducer.handle(.pointerMotion(dx: 0, dy: -2), at: 11_000)
        #expect(reducer.deadline == 91_000)
        #expect(reducer.expire(now: 90_999).isEmpty)
        #expect(reducer.expire(now: 91_000) == [.swipe(dx: 0, dy: -4, timeUsec: 11_000)])
        #expect(reducer.deadline == nil)
    }

    @Test("motion after a gap starts a new burst; short wobbles are not swipes")
    func separateBursts() {
        var reducer = GestureReducer(burstGapUsec: 50_000, minimumDistance: 3)
        _ = reducer.handle(.pointerMotion(dx: 5, dy: 0), at: 0)
        #expect(reducer.handle(.pointerMotion(dx: 1, dy: 0), at: 60_000) == [.swipe(dx: 5, dy: 0, timeUsec: 0)])
        #expect(reducer.expire(now: 200_000).isEmpty)
    }

    @Test("a click ends a pending burst and is a tap; its release is nothing")
    func tap() {
        var reducer = GestureReducer()
        _ = reducer.handle(.pointerMotion(dx: 0.5, dy: 0), at: 0)
        #expect(reducer.handle(.buttonPress, at: 5_000) == [.tap(timeUsec: 5_000)])
        #expect(reducer.handle(.buttonRelease, at: 9_000).isEmpty)
        #expect(reducer.deadline == nil)
    }
}
