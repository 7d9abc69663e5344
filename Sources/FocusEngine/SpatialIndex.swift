// The spatial index of directional search: a stack of uniform grids of doubling cell size. Each
// target (candidate or competing section) is filed once, by the centre of its frame, in the finest
// level whose cells are at least as large as the frame, so a cell bounds where the frames filed in
// it can reach (cell range ± the level's largest half extent). A search walks cells outwards from
// the source and stops when a cell's lower bound on the score exceeds the best score found, which
// makes it exact: it returns what scoring every target would (focus.md §2). Lines holding nothing
// in the searched band, and levels holding nothing ahead / in the beam / in the clip, are skipped
// outright, so a move that ends blocked at a scene edge costs no more than one that lands nearby.

/// The geometry of one grid level: cells of `cellW × cellH` from `originX, originY`; edge cells
/// reach to infinity. Plain values, so a scan can keep it in its cursor without retaining storage.
struct GridGeometry: Sendable {
    var originX: Double
    var originY: Double
    var cellW: Double
    var cellH: Double
    var cols: Int
    var rows: Int
    /// The largest half width / half height of any frame filed here (only grows).
    var maxHalfW: Double = 0
    var maxHalfH: Double = 0

    @inline(__always)
    static func cellOf(_ value: Double, _ origin: Double, _ size: Double, _ count: Int) -> Int {
        // No libm in a pure core: truncation is floor for the positive quotients that reach it.
        let cells = (value - origin) / size
        if !(cells > 0) { return 0 }
        if cells >= Double(count - 1) { return count - 1 }
        return Int(cells)
    }

    @inline(__always) func col(_ x: Double) -> Int { Self.cellOf(x, originX, cellW, cols) }
    @inline(__always) func row(_ y: Double) -> Int { Self.cellOf(y, originY, cellH, rows) }

    @inline(__always) func colLo(_ i: Int) -> Double { i == 0 ? -.infinity : originX + Double(i) * cellW }
    @inline(__always) func colHi(_ i: Int) -> Double { i == cols - 1 ? .infinity : originX + Double(i + 1) * cellW }
    @inline(__always) func rowLo(_ j: Int) -> Double { j == 0 ? -.infinity : originY + Double(j) * cellH }
    @inline(__always) func rowHi(_ j: Int) -> Double { j == rows - 1 ? .infinity : originY + Double(j + 1) * cellH }
}

/// One grid level: its geometry, the slots filed in each cell, and where each column and row holds
/// anything, so a scan never walks the empty lines past the last occupied one (a move that ends
/// blocked at a scene edge would otherwise visit every line up to the edge).
struct GridLevel: Sendable {
    var geo: GridGeometry
    /// Per cell: one slot filed there (-1: the cell is empty), inline so that a scan reads the
    /// cells of a line from one contiguous array; `more` holds any further slots of the cell.
    var head: [Int32]
    var more: [[Int32]]
    /// Per column: the first and last row whose cell is not empty (`Int32.max` / -1 when none).
    var colFirst: [Int32]
    var colLast: [Int32]
    /// Per row: the first and last column whose cell is not empty (`Int32.max` / -1 when none).
    var rowFirst: [Int32]
    var rowLast: [Int32]
    /// Rows and columns that ever held a frame (a superset of the occupied ones; only grows).
    var everRows: (lo: Int, hi: Int) = (Int.max, -1)
    var everCols: (lo: Int, hi: Int) = (Int.max, -1)
    /// A box holding every frame ever filed here (only grows), so a scan can pass over a level
    /// with nothing ahead of the source, in its beam, or in its clip without any cell arithmetic.
    var reach = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)

    init(geo: GridGeometry) {
        self.geo = geo
        head = Array(repeating: -1, count: geo.cols * geo.rows)
        more = Array(repeating: [], count: geo.cols * geo.rows)
        colFirst = Array(repeating: .max, count: geo.cols)
        colLast = Array(repeating: -1, count: geo.cols)
        rowFirst = Array(repeating: .max, count: geo.rows)
        rowLast = Array(repeating: -1, count: geo.rows)
    }

    /// Whether no slot is filed in cell `c`.
    @inline(__always) func isEmpty(_ c: Int) -> Bool { head[c] < 0 }

    /// Files `slot`, whose frame is `rect`, in cell `c`.
    mutating func add(_ slot: Int32, cell c: Int, rect: Rect) {
        if head[c] < 0 { head[c] = slot } else { more[c].append(slot) }
        reach = (min(reach.minX, rect.minX), min(reach.minY, rect.minY), max(reach.maxX, rect.maxX), max(reach.maxY, rect.maxY))
        let col = c % geo.cols, row = c / geo.cols
        colFirst[col] = min(colFirst[col], Int32(row))
        colLast[col] = max(colLast[col], Int32(row))
        rowFirst[row] = min(rowFirst[row], Int32(col))
        rowLast[row] = max(rowLast[row], Int32(col))
        everRows = (min(everRows.lo, row), max(everRows.hi, row))
        everCols = (min(everCols.lo, col), max(everCols.hi, col))
    }

    /// Unfiles `slot` from `cell`, narrowing its column's and row's extents when the cell empties.
    mutating func remove(_ slot: Int32, cell: Int) {
        if head[cell] == slot {
            head[cell] = more[cell].popLast() ?? -1
        } else {
            guard let position = more[cell].firstIndex(of: slot) else { return }
            more[cell].swapAt(position, more[cell].count - 1)
            more[cell].removeLast()
        }
        guard head[cell] < 0 else { return }
        let cols = geo.cols
        let col = cell % cols, row = cell / cols
        // The column: the next non-empty row inwards from the end that emptied.
        if colFirst[col] == Int32(row) {
            var scanRow = row + 1
            while scanRow <= Int(colLast[col]) && head[scanRow * cols + col] < 0 { scanRow += 1 }
            if scanRow > Int(colLast[col]) { colFirst[col] = .max; colLast[col] = -1 } else { colFirst[col] = Int32(scanRow) }
        } else if colLast[col] == Int32(row) {
            var scanRow = row - 1
            while scanRow > Int(colFirst[col]) && head[scanRow * cols + col] < 0 { scanRow -= 1 }
            colLast[col] = Int32(scanRow)
        }
        // The row likewise.
        if rowFirst[row] == Int32(col) {
            var scanCol = col + 1
            while scanCol <= Int(rowLast[row]) && head[row * cols + scanCol] < 0 { scanCol += 1 }
            if scanCol > Int(rowLast[row]) { rowFirst[row] = .max; rowLast[row] = -1 } else { rowFirst[row] = Int32(scanCol) }
        } else if rowLast[row] == Int32(col) {
            var scanCol = col - 1
            while scanCol > Int(rowFirst[row]) && head[row * cols + scanCol] < 0 { scanCol -= 1 }
            rowLast[row] = Int32(scanCol)
        }
    }

    /// The lines (columns when `horizontal`, else rows) that hold anything in cross lines
    /// `jMin...jMax` (rows when `horizontal`, else columns): a range containing every occupied one,
    /// or nil when there is none.
    func occupiedLines(horizontal: Bool, jMin: Int, jMax: Int) -> (lo: Int, hi: Int)? {
        // A wide band: the level's lifetime extent, not worth a pass over every cross line.
        if jMax - jMin > 64 {
            let extent = horizontal ? everCols : everRows
            return extent.lo <= extent.hi ? extent : nil
        }
        var lo = Int32.max, hi: Int32 = -1
        if horizontal {
            for cross in jMin...jMax { lo = min(lo, rowFirst[cross]); hi = max(hi, rowLast[cross]) }
        } else {
            for cross in jMin...jMax { lo = min(lo, colFirst[cross]); hi = max(hi, colLast[cross]) }
        }
        return lo <= hi ? (Int(lo), Int(hi)) : nil
    }
}

/// One level's walk along a move: the next line of cells `i` and its lower bound.
struct ScanCursor { var level: Int; var geo: GridGeometry; var i: Int; var iMin: Int; var iMax: Int; var jMin: Int; var jMax: Int; var j0: Int; var a: Double; var slack: Double; var lb: Double }

/// What a scan feeds: it visits slots while their lower bound is at most `bound`.
protocol ScanVisitor {
    /// The score a slot must not exceed to matter (the best found so far).
    var bound: Double { get }
    mutating func visit(_ slot: Int)
}

/// `x` rounded up, for the positive cell counts of a level (capped far above any real scene).
private func ceilCount(_ x: Double) -> Double {
    if !(x > 0) { return 1 }
    if x > 1e9 { return 1e9 }
    let i = Double(Int(x))
    return i < x ? i + 1 : i
}

/// One coordinate space's stack of levels: the scene's, or a scroll container's content (focus.md
/// §12), whose targets are filed in content coordinates so that a scroll files nothing again.
struct IndexGrid: Sendable {
    var levels: [GridLevel] = []
    /// (kx << 8 | ky) → position in `levels`.
    var levelKey: [Int: Int] = [:]
    var bounds: Rect
    var baseW: Double
    var baseH: Double
    var maxKX: Int
    var maxKY: Int
    var alive = true

    /// Lays out the levels for targets of typical size `typical` over `bounds`, for about `n` targets.
    init(bounds: Rect, typicalWidth: Double, typicalHeight: Double, expected: Int) {
        let spanW = max(bounds.width, 1), spanH = max(bounds.height, 1)
        var cw = max(typicalWidth, spanW / 4096, 1e-3), ch = max(typicalHeight, spanH / 4096, 1e-3)
        // Keep the finest level at most ~4 cells per target.
        let budget = Double(max(16, 4 * expected))
        while ceilCount(spanW / cw) * ceilCount(spanH / ch) > budget { cw *= 2; ch *= 2 }
        self.bounds = Rect(x: bounds.x, y: bounds.y, width: spanW, height: spanH)
        baseW = cw
        baseH = ch
        var kx = 0, ky = 0
        while ceilCount(spanW / (cw * Double(1 << kx))) > 1 && kx < 60 { kx += 1 }
        while ceilCount(spanH / (ch * Double(1 << ky))) > 1 && ky < 60 { ky += 1 }
        maxKX = kx
        maxKY = ky
    }

    mutating func levelIndex(kx: Int, ky: Int) -> Int {
        let key = kx << 8 | ky
        if let existing = levelKey[key] { return existing }
        let cw = baseW * Double(1 << kx), ch = baseH * Double(1 << ky)
        let cols = max(1, Int(ceilCount(bounds.width / cw))), rows = max(1, Int(ceilCount(bounds.height / ch)))
        levels.append(GridLevel(geo: GridGeometry(originX: bounds.x, originY: bounds.y, cellW: cw, cellH: ch, cols: cols, rows: rows)))
        levelKey[key] = levels.count - 1
        return levels.count - 1
    }
}

/// Targets filed by slot, with an exact best-first search and a brute-force enumeration.
///
/// Levels are anisotropic (cell width and height double independently) and created on first use,
/// so long thin frames (a row section) get cells of their own shape. Each slot is filed in one
/// grid: grid 0 is the scene's; `addGrid` makes one per scroll container (the per-slot arrays are
/// shared, so a grid costs only its cells).
struct SpatialIndex: Sendable {
    private(set) var grids: [IndexGrid]
    private var freeGrids: [Int] = []
    /// The scene grid's levels.
    var levels: [GridLevel] { grids[0].levels }
    /// Per slot: level (-1: not filed), cell, grid, and the frame it was filed with (in its grid's
    /// coordinates).
    private(set) var level: [Int32] = []
    private var cell: [Int32] = []
    private(set) var grid: [Int32] = []
    private(set) var frame: [Rect] = []
    private(set) var count = 0
    /// How many times a slot was filed or unfiled (the tests' measure of re-indexing).
    private(set) var updates = 0

    /// Lays out the scene grid for targets of typical size `typical` over `bounds`, for about `n` targets.
    init(bounds: Rect, typicalWidth: Double, typicalHeight: Double, expected: Int) {
        grids = [IndexGrid(bounds: bounds, typicalWidth: typicalWidth, typicalHeight: typicalHeight, expected: expected)]
    }

    /// A new, empty grid (a scroll container's content); returns its number.
    mutating func addGrid(bounds: Rect, typicalWidth: Double, typicalHeight: Double, expected: Int) -> Int {
        let newGrid = IndexGrid(bounds: bounds, typicalWidth: typicalWidth, typicalHeight: typicalHeight, expected: expected)
        if let reused = freeGrids.popLast() { grids[reused] = newGrid; return reused }
        grids.append(newGrid)
        return grids.count - 1
    }

    /// Unfiles every slot of grid `g` and frees it (its container is gone).
    mutating func removeGrid(_ removed: Int) {
        guard removed > 0, removed < grids.count, grids[removed].alive else { return }
        for gridLevel in grids[removed].levels {
            for (cellIndex, first) in gridLevel.head.enumerated() where first >= 0 {
                for slot in [first] + gridLevel.more[cellIndex] where level[Int(slot)] >= 0 && grid[Int(slot)] == Int32(removed) {
                    level[Int(slot)] = -1
                    count -= 1
                }
            }
        }
        grids[removed] = IndexGrid(bounds: Rect(x: 0, y: 0, width: 1, height: 1), typicalWidth: 1, typicalHeight: 1, expected: 1)
        grids[removed].alive = false
        freeGrids.append(removed)
    }

    /// Whether `slot` is filed, and with which frame.
    func filedFrame(_ slot: Int) -> Rect? {
        slot < level.count && level[slot] >= 0 ? frame[slot] : nil
    }

    /// Files `slot` with `rect` in grid `g`, or unfiles it when `rect` is nil; a no-op when nothing changes.
    mutating func set(_ slot: Int, _ rect: Rect?, grid gridIndex: Int = 0) {
        if slot >= level.count {
            let extra = max(slot + 1, level.count * 2) - level.count
            level.append(contentsOf: repeatElement(-1, count: extra))
            cell.append(contentsOf: repeatElement(-1, count: extra))
            grid.append(contentsOf: repeatElement(0, count: extra))
            frame.append(contentsOf: repeatElement(Rect(x: 0, y: 0, width: 0, height: 0), count: extra))
        }
        if level[slot] >= 0 {
            if let rect, rect == frame[slot], grid[slot] == Int32(gridIndex) { return }
            updates += 1
            let levelNumber = Int(level[slot]), cellIndex = Int(cell[slot]), old = Int(grid[slot])
            grids[old].levels[levelNumber].remove(Int32(slot), cell: cellIndex)
            level[slot] = -1
            count -= 1
        }
        guard let rect else { return }
        updates += 1
        var kx = 0, ky = 0
        let (baseW, baseH, maxKX, maxKY) = (grids[gridIndex].baseW, grids[gridIndex].baseH, grids[gridIndex].maxKX, grids[gridIndex].maxKY)
        while kx < maxKX && rect.width > baseW * Double(1 << kx) { kx += 1 }
        while ky < maxKY && rect.height > baseH * Double(1 << ky) { ky += 1 }
        let levelNumber = grids[gridIndex].levelIndex(kx: kx, ky: ky)
        let geo = grids[gridIndex].levels[levelNumber].geo
        let cellIndex = geo.row(rect.midY) * geo.cols + geo.col(rect.midX)
        grids[gridIndex].levels[levelNumber].add(Int32(slot), cell: cellIndex, rect: rect)
        grids[gridIndex].levels[levelNumber].geo.maxHalfW = max(geo.maxHalfW, rect.width / 2)
        grids[gridIndex].levels[levelNumber].geo.maxHalfH = max(geo.maxHalfH, rect.height / 2)
        level[slot] = Int32(levelNumber)
        cell[slot] = Int32(cellIndex)
        grid[slot] = Int32(gridIndex)
        frame[slot] = rect
        count += 1
    }

    /// Every filed slot (the brute-force scan), in slot order.
    func forEachFiled(_ body: (Int) -> Void) {
        for slot in 0..<level.count where level[slot] >= 0 { body(slot) }
    }

    /// Visits, for a move from `source` in `direction`, every filed slot whose score could be at most
    /// `visitor.bound` (a superset; `visit` does the exact test). `beamOnly` skips cells that cannot hold a
    /// frame in the source's beam.
    func scan<V: ScanVisitor>(
        grid gi: Int = 0, direction: Direction, source s: Rect, beamOnly: Bool, clip: Rect?, visitor: inout V
    ) {
        let horizontal = direction.isHorizontal
        let decreasing = direction == .left || direction == .up
        let sNear: Double = switch direction {
        case .left: s.minX
        case .right: s.maxX
        case .up: s.minY
        default: s.maxY
        }
        let crossLo = horizontal ? s.minY : s.minX
        let crossHi = horizontal ? s.maxY : s.maxX
        let crossCentre = crossLo + (crossHi - crossLo) / 2

        @inline(__always) func majorOf(_ g: GridGeometry, _ v: Double) -> Int { horizontal ? g.col(v) : g.row(v) }
        @inline(__always) func crossOf(_ g: GridGeometry, _ v: Double) -> Int { horizontal ? g.row(v) : g.col(v) }
        @inline(__always) func lineLB(_ c: ScanCursor) -> Double {
            let g = c.geo
            guard c.i >= c.iMin && c.i <= c.iMax else { return .infinity }
            let gap = decreasing ? sNear - (horizontal ? g.colHi(c.i) : g.rowHi(c.i)) - c.a
                                 : (horizontal ? g.colLo(c.i) : g.rowLo(c.i)) - c.a - sNear
            let major = max(0, gap - c.slack)
            return 13 * major * major
        }

        // Cursors on the stack and cells read through unsafe buffers: a move visits only a few
        // lines, so per-scan allocations and reference counting would otherwise dominate its cost.
        grids[gi].levels.withUnsafeBufferPointer { lv in
            withUnsafeTemporaryAllocation(of: ScanCursor.self, capacity: lv.count) { cursors in
                var n = 0
                for li in lv.indices {
                    // Nothing of the level ahead of the source, in its beam (when only the beam
                    // matters) or in the clip: no frame here can score (Measure.inDirection / inBeam).
                    let r = lv[li].reach
                    if r.minX > r.maxX { continue }
                    let ahead = switch direction {
                    case .left: r.minX < s.minX
                    case .right: r.maxX > s.maxX
                    case .up: r.minY < s.minY
                    default: r.maxY > s.maxY
                    }
                    if !ahead { continue }
                    if beamOnly {
                        let (lo, hi) = horizontal ? (r.minY, r.maxY) : (r.minX, r.maxX)
                        if !(hi > crossLo && lo < crossHi) { continue }
                    }
                    if let clip, r.maxX < clip.minX || r.minX > clip.maxX || r.maxY < clip.minY || r.minY > clip.maxY { continue }
                    let g = lv[li].geo
                    let a = horizontal ? g.maxHalfW : g.maxHalfH      // reach along the move
                    let hc = horizontal ? g.maxHalfH : g.maxHalfW     // reach across it
                    let slack = 1e-9 * (abs(sNear) + abs(crossCentre) + a + hc + g.cellW + g.cellH + 1)
                    var jMin = 0, jMax = (horizontal ? g.rows : g.cols) - 1
                    var iMin = 0, iMax = (horizontal ? g.cols : g.rows) - 1
                    if beamOnly {
                        jMin = crossOf(g, crossLo - hc - slack)
                        jMax = crossOf(g, crossHi + hc + slack)
                    }
                    if let clip {
                        // Frames inside `clip` have their centres inside it.
                        let (mLo, mHi, cLo, cHi) = horizontal ? (clip.minX, clip.maxX, clip.minY, clip.maxY) : (clip.minY, clip.maxY, clip.minX, clip.maxX)
                        iMin = majorOf(g, mLo - slack); iMax = majorOf(g, mHi + slack)
                        jMin = max(jMin, crossOf(g, cLo - slack)); jMax = min(jMax, crossOf(g, cHi + slack))
                    }
                    if jMin > jMax { continue }
                    // Only the lines holding something in the band can matter: the rest are empty.
                    guard let occupied = lv[li].occupiedLines(horizontal: horizontal, jMin: jMin, jMax: jMax) else { continue }
                    iMin = max(iMin, occupied.lo)
                    iMax = min(iMax, occupied.hi)
                    if iMin > iMax { continue }
                    var i = decreasing ? majorOf(g, sNear + a + slack) : majorOf(g, sNear - a - slack)
                    if decreasing { i = min(i, iMax) } else { i = max(i, iMin) }
                    var c = ScanCursor(level: li, geo: g, i: i, iMin: iMin, iMax: iMax, jMin: jMin, jMax: jMax,
                                       j0: min(max(crossOf(g, crossCentre), jMin), jMax), a: a, slack: slack, lb: 0)
                    c.lb = lineLB(c)
                    cursors.initializeElement(at: n, to: c)
                    n += 1
                }
                // Lines of all levels in order of their lower bound, until none can beat the best.
                while true {
                    var k = -1
                    var lowest = Double.infinity
                    for m in 0..<n where cursors[m].lb < lowest { lowest = cursors[m].lb; k = m }
                    if k < 0 || lowest > visitor.bound { break }
                    let c = cursors[k]
                    let g = c.geo
                    @inline(__always) func crossLB(_ j: Int) -> Double {
                        let lo = horizontal ? g.rowLo(j) : g.colLo(j), hi = horizontal ? g.rowHi(j) : g.colHi(j)
                        let d = crossCentre < lo ? lo - crossCentre : (crossCentre > hi ? crossCentre - hi : 0)
                        let m = max(0, d - c.slack)
                        return m * m
                    }
                    lv[c.level].head.withUnsafeBufferPointer { head in
                        @inline(__always) func visitCell(_ j: Int) {
                            let cell = horizontal ? j * g.cols + c.i : c.i * g.cols + j
                            let first = head[cell]
                            if first < 0 { return }
                            visitor.visit(Int(first))
                            lv[c.level].more.withUnsafeBufferPointer { more in
                                more[cell].withUnsafeBufferPointer { slots in
                                    for slot in slots { visitor.visit(Int(slot)) }
                                }
                            }
                        }
                        var j = c.j0
                        while j >= c.jMin {
                            if lowest + crossLB(j) > visitor.bound { break }
                            visitCell(j)
                            j -= 1
                        }
                        j = c.j0 + 1
                        while j <= c.jMax {
                            if lowest + crossLB(j) > visitor.bound { break }
                            visitCell(j)
                            j += 1
                        }
                    }
                    cursors[k].i += decreasing ? -1 : 1
                    cursors[k].lb = lineLB(cursors[k])
                }
                // ScanCursor is trivial: nothing to deinitialize.
            }
        }
    }

    /// Visits every filed slot whose frame may intersect `rect` (a superset).
    func query(grid gi: Int = 0, intersecting r: Rect, visit: (Int) -> Void) {
        for level in grids[gi].levels {
            let g = level.geo
            let c0 = g.col(r.minX - g.maxHalfW), c1 = g.col(r.maxX + g.maxHalfW)
            let r0 = g.row(r.minY - g.maxHalfH), r1 = g.row(r.maxY + g.maxHalfH)
            for j in r0...r1 {
                for i in c0...c1 where !level.isEmpty(j * g.cols + i) {
                    visit(Int(level.head[j * g.cols + i]))
                    for slot in level.more[j * g.cols + i] { visit(Int(slot)) }
                }
            }
        }
    }
}
