import ArgumentParser
import FocusEngine
import FocusWire
import Varlink

/// `focusctl watch`: a live picture of the active scene.
struct WatchCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Draw a live picture of the active scene in the terminal, redrawn as focus moves.",
        discussion: """
            The scene's frames are scaled to the terminal. Focus candidates are drawn with solid \
            boxes, containers and nodes that cannot take focus with dashed ones; the focused node \
            has a double border, its id in reverse video and marked with ▶ (◆ marks the \
            accessibility focus). The last event is written underneath. The picture follows the \
            active scene and is redrawn on every event and when the terminal is resized; Ctrl-C quits.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Draw one picture of the current state and exit.")
    var once = false

    @Option(help: "Draw at this size instead of the terminal's (COLUMNSxROWS, e.g. 120x40).")
    var size: PictureSize?

    /// The lines under the picture: the last event and the legend.
    private static let footerLines = 2
    /// The line above the picture: scene, focus, revision.
    private static let headerLines = 1

    func execute(_ output: Output) throws {
        let query = try global.connect()
        defer { query.close() }
        var view = WatchView()
        view.fetchScene(query)

        if once {
            if global.quiet { return }
            for line in view.lines(size: pictureSize(), styled: Terminal.isTerminal) { output.write(line) }
            return
        }

        let monitor = try global.connect(timeout: nil)
        defer { monitor.close() }
        let replies = try monitor.callMore(FocusMethod.monitor.qualified)
        let fullScreen = Terminal.isTerminal && !global.quiet
        if fullScreen { Terminal.enterFullScreen() }
        defer { if fullScreen { Terminal.leaveFullScreen() } }

        var drawnSize = pictureSize()
        func draw() {
            guard !global.quiet else { return }
            drawnSize = pictureSize()
            let lines = view.lines(size: drawnSize, styled: fullScreen)
            if fullScreen {
                Terminal.redraw(lines)
            } else {
                for line in lines { output.write(line) }
            }
        }
        draw()
        while true {
            let reply: JSONValue?
            do {
                reply = try replies.next(timeout: .milliseconds(250))
            } catch VarlinkClientError.timedOut {
                let current = pictureSize()
                if current != drawnSize { draw() }
                continue
            }
            guard let reply else { break }
            if let state = try? reply.member("state", as: FocusState.self) {
                if state.scene != view.scene?.name { view.fetchScene(query) } else { view.state = state }
            }
            if let event = reply["event"], !event.isNull {
                view.record(event)
                if event["kind"]?.stringValue == "scene" { view.fetchScene(query) } else { view.fetchState(query) }
            }
            draw()
        }
    }

    private func pictureSize() -> PictureSize {
        if let size { return size }
        let (columns, rows) = Terminal.size()
        return PictureSize(columns: columns, rows: rows)
    }
}

/// A picture size in terminal cells, given as `COLUMNSxROWS`.
struct PictureSize: ExpressibleByArgument, Equatable {
    var columns: Int
    var rows: Int

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
            (10...1000).contains(columns), (5...1000).contains(rows)
        else { return nil }
        self.init(columns: columns, rows: rows)
    }
}

/// What `watch` shows: the active scene's tree, its state, the last event.
struct WatchView {
    var scene: Scene? = nil
    var state: FocusState? = nil
    /// The last event, with the others of the same call (they share its revision), in words.
    var lastEvent: String?
    private var lastEventRevision: Int64?
    private var lastEventScene: String?
    /// Why there is no scene to draw, when there is none.
    var problem: String? = nil

    /// Notes an event for the line under the picture: the events of one call (a focus event, then
    /// bindings and values) are shown together.
    mutating func record(_ event: JSONValue) {
        let text = EventText.line(event)
        let revision = event["revision"]?.integerValue
        let scene = event["scene"]?.stringValue
        let kind = event["kind"]?.stringValue
        let follows = kind == "bindings" || kind == "values" || kind == "materialize" || kind == "scroll"
        if let lastEvent, follows, revision != nil, revision == lastEventRevision, scene == lastEventScene {
            self.lastEvent = lastEvent + " · " + text
        } else {
            lastEvent = text
        }
        lastEventRevision = revision
        lastEventScene = scene
    }

    /// Re-reads the active scene and its state (io.focusd.Inspect.GetScene).
    mutating func fetchScene(_ client: VarlinkClient) {
        do {
            let reply = try client.call(InspectMethod.getScene.qualified)
            scene = try reply.member("scene", as: Scene.self)
            state = try reply.member("state", as: FocusState.self)
            problem = nil
        } catch let error as VarlinkError where error.name.hasSuffix(".NoSuchScene") {
            scene = nil
            state = nil
            problem = "no active scene (waiting for a client to set one)"
        } catch {
            problem = "cannot read the scene: \(CommandFailure.from(error, socket: "").message ?? "\(error)")"
        }
    }

    /// Re-reads the state of the scene on screen.
    mutating func fetchState(_ client: VarlinkClient) {
        guard let name = scene?.name else { return fetchScene(client) }
        do {
            state = try client.call(FocusMethod.getState.qualified, ["scene": .string(name)]).member("state")
        } catch {
            fetchScene(client)
        }
    }

    /// The whole screen: a header, the picture, the last event and a legend.
    func lines(size: PictureSize, styled: Bool) -> [String] {
        let width = size.columns
        var header = "focusd"
        if let state {
            header += "  scene \(state.scene)  focused \(state.focusedText)  revision \(state.revision)"
        }
        let pictureHeight = max(size.rows - 3, 1)
        var lines = [ScenePicture.truncate(header, to: width)]
        if let scene {
            let picture = ScenePicture(
                scene: scene, focused: state?.focused, accessibilityFocused: state?.accessibilityFocused,
                scroll: state?.scroll ?? [], width: width, height: pictureHeight)
            lines += styled ? picture.styledLines : picture.plainLines
        } else {
            lines.append(ScenePicture.truncate(problem ?? "no scene", to: width))
            lines += Array(repeating: "", count: pictureHeight - 1)
        }
        let revision = lastEventRevision.map { " (revision \($0))" } ?? ""
        lines.append(ScenePicture.truncate("last event\(revision): \(lastEvent ?? "(none yet)")", to: width))
        lines.append(
            ScenePicture.truncate("╔▶id╗ focused   ┌─┐ candidate   ┌┄┐ not built   ┌╌┐ container   Ctrl-C quits", to: width))
        return lines
    }
}

/// One event of io.focusd.Focus.Monitor in a few words.
enum EventText {
    static func line(_ event: JSONValue) -> String {
        guard let decoded = try? event.decode(Event.self) else { return event.compactText }
        var text: String
        switch decoded.kind {
        case .focus:
            text = "focus \(decoded.from ?? "(none)") → \(decoded.to ?? "(none)")"
        case .blocked:
            text = "blocked at \(decoded.from ?? "(none)")"
        case .activate:
            text = "activate \(decoded.to ?? "(none)")"
        case .edit:
            text = "edit \(decoded.to ?? "(none)")"
            if let detents = decoded.detents { text += " detents \(detents)" }
        case .command:
            text = "command \(decoded.command ?? "?")"
        case .bindings:
            text = "bindings \(StateText.bindings(decoded.bindings ?? []))"
        case .values:
            text = "values \(StateText.values(decoded.values ?? [:]))"
        case .scene:
            text = "scene \(decoded.scene) changed"
        case .scroll:
            text = "scroll \(decoded.node ?? "?") to \(Self.number(decoded.offsetX ?? 0)),\(Self.number(decoded.offsetY ?? 0))"
        case .materialize:
            text = "materialize \(decoded.node ?? "?")#\(decoded.index.map(String.init) ?? "?")"
        }
        if let cause = decoded.cause {
            var because = cause.kind.rawValue
            if let direction = cause.direction { because += " \(direction.rawValue)" }
            if let device = cause.device { because += " from \(device)" }
            text += " (\(because))"
        } else if let device = decoded.device {
            text += " (from \(device))"
        }
        if decoded.track == .accessibility { text += " [accessibility]" }
        return text
    }

    /// 120 for 120.0, else the number as Swift prints it.
    static func number(_ v: Double) -> String {
        v == v.rounded(.towardZero) && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
