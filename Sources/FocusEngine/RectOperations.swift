// Rectangle operations of the store: translation, union, overlap.

extension Rect {
    /// The rectangle moved by `t`.
    @inline(__always) func offset(by t: (x: Double, y: Double)) -> Rect {
        Rect(x: x + t.x, y: y + t.y, width: width, height: height)
    }

    /// The smallest rectangle holding both.
    func union(_ o: Rect) -> Rect {
        let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
        return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// The area both cover (0 when disjoint).
    func intersectionArea(_ o: Rect) -> Double {
        let w = min(maxX, o.maxX) - max(minX, o.minX), h = min(maxY, o.maxY) - max(minY, o.minY)
        return w > 0 && h > 0 ? w * h : 0
    }
}
