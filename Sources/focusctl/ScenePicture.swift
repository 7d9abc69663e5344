import FocusEngine

/// A character picture of a scene: its frames scaled to a grid of terminal cells, each node a box
/// labelled with its id, the focused node drawn last and marked.
///
/// Pure: it takes the scene, its state and a size, and returns cells; ``Terminal`` prints them.
/// Box styles tell the kinds of node apart even without colour:
///
/// ```
/// ╔▶heroFeatured══╗   the focused node: double border, ▶ before its id (bold, reverse video)
/// ┌tile00─────────┐   a focus candidate
/// ┌tiles╌╌╌╌╌╌╌╌╌╌┐   a container, or a node that cannot take focus (dashed)
/// ┌rail#12┄┄┄┄┄┄┄┄┐   a collection's virtual item, not built by the client (dotted, dim)
/// ```
///
/// Scroll containers (focus.md §12) are drawn as their viewport, labelled with their offset
/// (`rail ↔120`), with what their content shows at that offset inside it and nothing beyond.
struct ScenePicture {
    /// How a cell is shown on a terminal that understands attributes.
    enum Attribute: Equatable { case plain, bold, highlight, dim }

    struct Cell: Equatable {
        var character: Character = " "
        var attribute: Attribute = .plain
    }

    /// The marker written before the focused node's id (visible in a plain capture too).
    static let focusMarker: Character = "▶"
    /// The marker written before the accessibility-focused node's id.
    static let accessibilityMarker: Character = "◆"

    private(set) var rows: [[Cell]]
    /// For each cell, the index of the last box drawn over it (border or inside), or -1.
    private var owners: [[Int]]
    let width: Int
    let height: Int

    private struct Style {
        var horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Character
        var flatLeft, flatRight: Character
        var attribute: Attribute
        static let candidate = Style(
            horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
            flatLeft: "[", flatRight: "]", attribute: .plain)
        static let container = Style(
            horizontal: "╌", vertical: "╎", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
            flatLeft: "┌", flatRight: "┐", attribute: .plain)
        static let virtual = Style(
            horizontal: "┄", vertical: "┆", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
            flatLeft: "[", flatRight: "]", attribute: .dim)
        static let focused = Style(
            horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝",
            flatLeft: "«", flatRight: "»", attribute: .bold)
    }

    /// Draws `scene` into a `width` x `height` grid; `focused` and `accessibilityFocused` are node ids.
    init(scene: Scene, focused: String?, accessibilityFocused: String? = nil, scroll: [ScrollOffset] = [],
         width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        rows = Array(repeating: Array(repeating: Cell(), count: self.width), count: self.height)
        owners = Array(repeating: Array(repeating: -1, count: self.width), count: self.height)

        var boxes: [Box] = []
        var offsets: [String: (Double, Double)] = [:]
        for o in scroll { offsets[o.node] = (o.offsetX, o.offsetY) }
        let rtl = scene.layoutDirection == .rightToLeft
        Self.collect(scene.root, disabledAbove: false, translation: (0, 0), clip: nil, offsets: offsets, rtl: rtl, into: &boxes)
        guard let bounds = Self.bounds(root: scene.root, boxes: boxes.map(\.frame)) else { return }

        let mapper = Mapper(bounds: bounds, width: self.width, height: self.height)
        var focusedBox: (Node, Rect)?

        var containerLabels: [(box: (left: Int, top: Int, right: Int, bottom: Int), owner: Int, label: String)] = []
        for (index, box) in boxes.enumerated() {
            if box.node.id == focused && box.candidate {
                focusedBox = (box.node, box.frame)
                continue
            }
            var label = box.node.id
            if let o = offsets[box.node.id], box.node.scroll != nil {
                label += " " + (box.node.scroll?.axis == .vertical ? "↕" + Self.number(o.1)
                    : box.node.scroll?.axis == .horizontal ? "↔" + Self.number(o.0) : "↔" + Self.number(o.0) + " ↕" + Self.number(o.1))
            }
            if box.node.id == accessibilityFocused { label = String(Self.accessibilityMarker) + label }
            let cells = mapper.cells(box.frame)
            claim(cells, owner: index)
            if box.virtual {
                draw(cells, label: label, style: .virtual)
            } else if box.candidate {
                draw(cells, label: label, style: .candidate)
            } else {
                draw(cells, label: nil, style: .container)
                containerLabels.append((cells, index, label))
            }
        }
        // Containers are labelled once their children are drawn, where the children leave room.
        for (box, owner, label) in containerLabels { placeContainerLabel(label, in: box, owner: owner) }
        if let (node, frame) = focusedBox {
            var label = String(Self.focusMarker) + node.id
            if node.id == accessibilityFocused { label = String(Self.accessibilityMarker) + label }
            draw(mapper.cells(frame), label: label, style: .focused)
        }
    }

    /// The picture as plain text lines (trailing spaces trimmed).
    var plainLines: [String] {
        rows.map { row in
            var line = String(row.map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The picture as lines with ANSI attributes (bold, reverse video) for a terminal.
    var styledLines: [String] {
        rows.map { row in
            var line = ""
            var current = Attribute.plain
            for cell in row {
                if cell.attribute != current {
                    line += "\u{1B}[0m"
                    switch cell.attribute {
                    case .plain: break
                    case .bold: line += "\u{1B}[1m"
                    case .highlight: line += "\u{1B}[1;7m"
                    case .dim: line += "\u{1B}[2m"
                    }
                    current = cell.attribute
                }
                line.append(cell.character)
            }
            if current != .plain { line += "\u{1B}[0m" }
            return line
        }
    }

    // MARK: Drawing

    private mutating func draw(_ box: (left: Int, top: Int, right: Int, bottom: Int), label: String?, style: Style) {
        let (left, top, right, bottom) = box
        if bottom > top {
            for column in left...right {
                put(column, top, column == left ? style.topLeft : column == right ? style.topRight : style.horizontal, style)
                put(column, bottom, column == left ? style.bottomLeft : column == right ? style.bottomRight : style.horizontal, style)
            }
            for row in (top + 1)..<bottom {
                put(left, row, style.vertical, style)
                put(right, row, style.vertical, style)
            }
        } else {
            // A box one row high: a line with end caps, [──] or «══» (containers keep corners).
            for column in left...right { put(column, top, style.horizontal, style) }
            if right > left {
                put(left, top, style.flatLeft, style)
                put(right, top, style.flatRight, style)
            }
        }
        guard let label else { return }
        // The id goes inside a box three or more rows high, else on its top edge.
        let labelRow = bottom - top >= 2 ? top + 1 : top
        let room = right > left ? right - left - 1 : 1
        let text = Self.truncate(label, to: room)
        let start = right > left ? left + 1 : left
        let attribute: Attribute = style.attribute == .bold ? .highlight : style.attribute == .dim ? .dim : .plain
        for (offset, character) in text.enumerated() {
            put(start + offset, labelRow, character, attribute: attribute)
        }
    }

    /// Writes a container's id on its top edge where no child covers it, else in the first blank
    /// stretch inside it (padded by a space each side), else nowhere.
    private mutating func placeContainerLabel(
        _ label: String, in box: (left: Int, top: Int, right: Int, bottom: Int), owner: Int
    ) {
        let (left, top, right, bottom) = box
        let first = max(left + 1, 0), last = min(right - 1, width - 1)
        guard first <= last, top < height, bottom >= 0 else { return }
        let text = Self.truncate(label, to: last - first + 1)
        let length = text.count
        func freeRun(row: Int, from: Int, allowed: (Character) -> Bool, padding: Int) -> Int? {
            guard row >= 0, row < height else { return nil }
            var start = from
            var column = from
            while column <= last {
                if owners[row][column] != owner || !allowed(rows[row][column].character) {
                    start = column + 1
                } else if column - start + 1 >= length + 2 * padding {
                    return start + padding
                }
                column += 1
            }
            return nil
        }
        let edge: Character = Style.container.horizontal
        var spot: (column: Int, row: Int)?
        if let column = freeRun(row: top, from: first, allowed: { $0 == edge }, padding: 0) {
            spot = (column, top)
        } else if bottom - top >= 2 {
            for row in (top + 1)..<bottom {
                if let column = freeRun(row: row, from: first, allowed: { $0 == " " }, padding: 1) {
                    spot = (column, row)
                    break
                }
            }
        }
        guard let spot else { return }
        for (offset, character) in text.enumerated() { put(spot.column + offset, spot.row, character, attribute: .plain) }
    }

    /// Marks the cells of a box (border and inside) as the box `owner`'s.
    private mutating func claim(_ box: (left: Int, top: Int, right: Int, bottom: Int), owner: Int) {
        let left = max(box.left, 0), right = min(box.right, width - 1)
        let top = max(box.top, 0), bottom = min(box.bottom, height - 1)
        guard left <= right, top <= bottom else { return }
        for row in top...bottom {
            for column in left...right { owners[row][column] = owner }
        }
    }

    private mutating func put(_ column: Int, _ row: Int, _ character: Character, _ style: Style) {
        put(column, row, character, attribute: style.attribute)
    }

    private mutating func put(_ column: Int, _ row: Int, _ character: Character, attribute: Attribute) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        rows[row][column] = Cell(character: character, attribute: attribute)
    }

    /// `text` cut to `room` characters, ending in `…` when cut.
    static func truncate(_ text: String, to room: Int) -> String {
        guard room > 0 else { return "" }
        guard text.count > room else { return text }
        return room == 1 ? String(text.prefix(1)) : String(text.prefix(room - 1)) + "…"
    }

    // MARK: Geometry

    /// One thing to draw: a node (or a virtual item) with its scene frame.
    private struct Box {
        var node: Node
        var frame: Rect
        var candidate: Bool
        var virtual = false
    }

    /// The nodes with a drawable frame, in tree order (parents before children), and whether each
    /// is a focus candidate (focusable, a non-empty frame, neither it nor an ancestor disabled).
    /// Frames inside scroll containers are moved to scene coordinates and cut to the viewports;
    /// a collection's virtual items are drawn where a viewport shows them (at most a few thousand).
    private static func collect(
        _ node: Node, disabledAbove: Bool, translation t: (Double, Double), clip: Rect?,
        offsets: [String: (Double, Double)], rtl: Bool, slot: Rect? = nil, into boxes: inout [Box]
    ) {
        let disabled = disabledAbove || node.disabled == true
        var frame = (node.frame ?? slot).map { Rect(x: $0.x + (node.frame == nil ? 0 : t.0), y: $0.y + (node.frame == nil ? 0 : t.1),
                                                  width: $0.width, height: $0.height) }
        if let c = node.collection, var f = frame {
            let size = CollectionGeometry(c, rtl: rtl).size
            f.width = size.width; f.height = size.height
            frame = f
        }
        if let frame, !frame.isEmpty, let shown = clip.map({ frame.clipped(to: $0) }) ?? frame {
            boxes.append(Box(node: node, frame: shown, candidate: node.focusable == true && !disabled))
        }
        var childT = t, childClip = clip
        if node.scroll != nil, let f = frame {
            let o = offsets[node.id] ?? (node.scroll?.offsetX ?? 0, node.scroll?.offsetY ?? 0)
            childT = (f.x - o.0, f.y - o.1)
            childClip = clip.map { f.clipped(to: $0) } ?? f
            if childClip == nil { return }
        }
        if let c = node.collection, let f = frame {
            let geometry = CollectionGeometry(c, rtl: rtl)
            var built = Set<Int>()
            for child in node.children ?? [] {
                if let i = child.index { built.insert(i) }
                let itemSlot = child.index.map { geometry.frame($0, x: f.x, y: f.y) }
                collect(child, disabledAbove: disabled, translation: childT, clip: childClip, offsets: offsets, rtl: rtl,
                        slot: itemSlot, into: &boxes)
            }
            guard let window = childClip ?? frame else { return }
            for i in geometry.indices(in: window, x: f.x, y: f.y, limit: 4000) where !built.contains(i) {
                let r = geometry.frame(i, x: f.x, y: f.y)
                guard let shown = r.clipped(to: window) else { continue }
                boxes.append(Box(node: Node(id: "\(node.id)#\(i)", frame: r, focusable: true), frame: shown,
                                 candidate: !disabled, virtual: true))
            }
            return
        }
        for child in node.children ?? [] {
            collect(child, disabledAbove: disabled, translation: childT, clip: childClip, offsets: offsets, rtl: rtl, into: &boxes)
        }
    }

    /// 120 for 120.0, else the number as Swift prints it.
    static func number(_ v: Double) -> String {
        v == v.rounded(.towardZero) && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// The area to fit on screen: the root's frame, else the union of all frames.
    private static func bounds(root: Node, boxes: [Rect]) -> Rect? {
        if let frame = root.frame, !frame.isEmpty { return frame }
        guard let first = boxes.first else { return nil }
        var minX = first.minX, minY = first.minY, maxX = first.maxX, maxY = first.maxY
        for frame in boxes.dropFirst() {
            minX = min(minX, frame.minX)
            minY = min(minY, frame.minY)
            maxX = max(maxX, frame.maxX)
            maxY = max(maxY, frame.maxY)
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Scene coordinates to cells.
    private struct Mapper {
        var bounds: Rect
        var width: Int
        var height: Int

        /// Cells are clamped to one beyond each edge, so frames far off screen stay cheap to draw.
        func column(_ x: Double) -> Int { Self.cell((x - bounds.minX) / bounds.width * Double(width), limit: width) }
        func row(_ y: Double) -> Int { Self.cell((y - bounds.minY) / bounds.height * Double(height), limit: height) }

        private static func cell(_ position: Double, limit: Int) -> Int {
            guard position.isFinite else { return -1 }
            return Int(min(max(position.rounded(), -1), Double(limit)))
        }

        /// The cells a frame covers: at least one cell, inclusive edges.
        func cells(_ frame: Rect) -> (left: Int, top: Int, right: Int, bottom: Int) {
            let left = column(frame.minX), top = row(frame.minY)
            return (left, top, max(left, column(frame.maxX) - 1), max(top, row(frame.maxY) - 1))
        }
    }
}

/// A collection's slots (focus.md §12) for drawing: index ↔ frame, and the indices a rectangle shows.
struct CollectionGeometry {
    var c: FocusEngine.Collection
    var rtl: Bool
    var columns: Int
    var rows: Int

    init(_ c: FocusEngine.Collection, rtl: Bool) {
        self.c = c
        self.rtl = rtl && c.layout != .column
        let count = max(0, c.count)
        switch c.layout {
        case .row: columns = count; rows = count > 0 ? 1 : 0
        case .column: columns = count > 0 ? 1 : 0; rows = count
        case .grid: columns = max(1, c.columns ?? 1); rows = (count + columns - 1) / columns
        }
    }

    var pitchX: Double { c.itemWidth + (c.spacing ?? 0) }
    var pitchY: Double { c.itemHeight + (c.spacing ?? 0) }
    var size: (width: Double, height: Double) {
        (Double(columns) * pitchX - (columns > 0 ? c.spacing ?? 0 : 0), Double(rows) * pitchY - (rows > 0 ? c.spacing ?? 0 : 0))
    }

    func frame(_ i: Int, x: Double, y: Double) -> Rect {
        var column = c.layout == .column ? 0 : i % max(columns, 1)
        let row = c.layout == .column ? i : c.layout == .row ? 0 : i / max(columns, 1)
        if rtl { column = columns - 1 - column }
        return Rect(x: x + Double(column) * pitchX, y: y + Double(row) * pitchY, width: c.itemWidth, height: c.itemHeight)
    }

    /// The indices whose slots meet `r`, at most `limit` of them.
    func indices(in r: Rect, x: Double, y: Double, limit: Int) -> [Int] {
        guard columns > 0, rows > 0 else { return [] }
        func span(_ lo: Double, _ hi: Double, _ pitch: Double, _ n: Int) -> ClosedRange<Int>? {
            let a = max(0, Int(((lo) / pitch).rounded(.down)))
            let b = min(n - 1, Int(((hi) / pitch).rounded(.down)))
            return a <= b ? a...b : nil
        }
        guard let cs = span(r.minX - x, r.maxX - x, pitchX, columns), let rs = span(r.minY - y, r.maxY - y, pitchY, rows) else { return [] }
        var out: [Int] = []
        for row in rs {
            for pc in cs {
                let column = rtl ? columns - 1 - pc : pc
                let i = c.layout == .column ? row : c.layout == .row ? column : row * columns + column
                if i < c.count { out.append(i) }
                if out.count >= limit { return out }
            }
        }
        return out
    }
}

extension Rect {
    /// The part of this rectangle inside `r`, nil when none.
    func clipped(to r: Rect) -> Rect? {
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY), x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
