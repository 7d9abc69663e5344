// Rectangle operations of the store: translation, union, overlap.

extension Rect {
    /// The rectangle moved by `delta`.
    @inline(__always) func offset(by delta: (x: Double, y: Double)) -> Rect {
        Rect(x: x + delta.x, y: y + delta.y, width: width, height: height)
    }

    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The area both cover (0 when disjoint).
    func intersectionArea(_ other: Rect) -> Double {
        let overlapWidth = min(maxX, other.maxX) - max(minX, other.minX), overlapHeight = min(maxY, other.maxY) - max(minY, other.minY)
        return overlapWidth > 0 && overlapHeight > 0 ? overlapWidth * overlapHeight : 0
    }
}
