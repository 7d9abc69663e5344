// The input thread's loop: sleeps in the kernel, feeds what woke it to `InputCore`, and carries
// the core's actions out through `InputKernel`. It decides nothing itself.
import InputMapping
import Logging
import SystemCalls

/// The loop and its kernel; used only on the loop thread (built on the starting one).
final class LoopCore {
    private let core: InputCore
    private let focusContext: @Sendable () -> FocusContext
    private let kernel: any InputKernel
    private let delegate: any InputLoopDelegate
    private let logger = Logger(label: "focusd.input")
    private var armedDeadline: Int64?
    /// The core's `listVersion` when the list was last published (nil: never).
    private var publishedVersion: Int?
    private let takeCommands: () -> [LoopCommand]
    private let publish: ([DeviceInfo]) -> Void
    private let countWakeup: () -> Void
    /// Answers a `lend` or `reclaim` command (its token) with the device as listed now.
    private let complete: (Int, DeviceInfo?) -> Void

    init(
        configuration: InputLoopConfiguration, kernel: any InputKernel, delegate: any InputLoopDelegate,
        takeCommands: @escaping () -> [LoopCommand], publish: @escaping ([DeviceInfo]) -> Void,
        countWakeup: @escaping () -> Void, complete: @escaping (Int, DeviceInfo?) -> Void = { _, _ in }
    ) {
        core = InputCore(configuration: configuration, udevRuns: kernel.udevRuns)
        focusContext = configuration.focusContext
        self.kernel = kernel
        self.delegate = delegate
        self.takeCommands = takeCommands
        self.publish = publish
        self.countWakeup = countWakeup
        self.complete = complete
    }

    /// Enumerates, then serves wake-ups until shutdown; then ungrabs and closes everything.
    func run() {
        begin()
        while !core.stopped {
            let wakeups: [Wakeup]
            do {
                wakeups = try kernel.wait()
            } catch {
                logger.critical("epoll_wait failed, input loop stops", metadata: ["error": "\(error)"])
                break
            }
            countWakeup()
            serve(wakeups)
        }
        finish()
    }

    /// Lists what is there (discovery is subscribed already), arms the timer, publishes.
    func begin() {
        logger.info("input loop started", metadata: ["discovery": "\(kernel.udevRuns ? "udev" : "inotify")"])
        do {
            for news in try kernel.enumerate() { take(news) }
        } catch {
            logger.error("\(kernel.udevRuns ? "udev enumeration" : "enumeration") failed", metadata: ["error": "\(error)"])
        }
        settle()
    }

    /// Serves the wake-ups of one `wait`, then re-arms the timer and publishes.
    func serve(_ wakeups: [Wakeup]) {
        for wakeup in wakeups where !core.stopped { handle(wakeup) }
        settle()
    }

    /// Whether a `shutdown` command was served.
    var stopped: Bool { core.stopped }

    /// Closes and reports removed whatever is still open (after a shutdown, or when waiting failed).
    func finish() {
        if !core.stopped { feed(.command(.shutdown)) }
        publish(core.devices)
        logger.info("input loop stopped")
    }

    /// Serves one wake-up.
    private func handle(_ wakeup: Wakeup) {
        switch wakeup {
        case .commands:
            for command in takeCommands() {
                if case .addNode(let node) = command {
                    feed(.sighted(kernel.describe(node: node)))
                } else {
                    feed(.command(command))
                }
            }
        case .timer:
            feed(.timerFired)
            feed(.gestures(kernel.expireLibinput(now: kernel.monotonicUsec())))
        case .discovery:
            do {
                for news in try kernel.discoveryNews() { take(news) }
            } catch {
                logger.error("inotify read failed", metadata: ["error": "\(error)"])
            }
        case .libinput:
            do {
                feed(.gestures(try kernel.dispatchLibinput()))
            } catch {
                logger.error("libinput dispatch failed", metadata: ["error": "\(error)"])
            }
        case .device(let node):
            perform(.read(node: node))
        }
    }

    private func take(_ news: DiscoveryNews) {
        switch news {
        case .sighted(let sighting): feed(.sighted(sighting))
        case .removed(let node): feed(.removed(node: node))
        case .directoryRemoved(let prefix): feed(.directoryRemoved(prefix: prefix))
        }
    }

    /// Arms the timer for the earliest retry or gesture deadline (disarmed when there is none)
    /// and publishes the list when it changed. Runs after every wake-up: a frame allocates
    /// nothing here.
    private func settle() {
        let deadline = earlier(core.deadline, kernel.libinputDeadline)
        if deadline != armedDeadline {
            do {
                try kernel.arm(deadline: deadline)
                armedDeadline = deadline
            } catch {
                logger.error("timerfd_settime failed", metadata: ["error": "\(error)"])
            }
        }
        publishIfChanged()
    }

    private func publishIfChanged() {
        if core.listVersion != publishedVersion {
            publishedVersion = core.listVersion
            publish(core.devices)
        }
    }

    /// Hands one event to the core and carries out its actions, each outcome fed back before
    /// the next action (depth first: the core sees an open's result before anything else).
    private func feed(_ event: InputCore.Event) {
        let actions = core.handle(event, now: kernel.monotonicUsec(), wallNow: kernel.wallClockUsec(), context: focusContext())
        for action in actions { perform(action) }
    }

    private func perform(_ action: InputCore.Action) {
        switch action {
        case .open(let node):
            do {
                feed(.opened(node: node, identity: try kernel.open(node)))
            } catch {
                feed(.openFailed(node: node, error, vanished: error.isGone && !kernel.nodeExists(node)))
            }
        case .watch(let node):
            do {
                try kernel.watch(node)
                feed(.reading(node: node))
            } catch {
                feed(.openFailed(node: node, error, vanished: error.isGone && !kernel.nodeExists(node)))
            }
        case .addToLibinput(let node):
            switch kernel.addToLibinput(node) {
            case .added: feed(.reading(node: node))
            case .failed(let error): feed(.openFailed(node: node, error, vanished: error.isGone && !kernel.nodeExists(node)))
            case .unavailable(let reason): feed(.libinputUnavailable(node: node, reason: reason))
            }
        case .close(let node):
            kernel.close(node)
        case .read(let node):
            do {
                guard let readings = try kernel.read(node) else { return }
                feed(.readings(node: node, readings))
            } catch {
                feed(.readFailed(node: node, error))
            }
        case .queryKeys(let node):
            feed(.keysDown(node: node, kernel.keysDown(node)))
        case .setGrab(let node, let grab):
            do {
                try kernel.setGrab(node, grab)
                feed(.grabSet(node: node, grabbed: grab))
            } catch {
                feed(.grabFailed(node: node, error))
            }
        case .createPassthrough(let node, let spec):
            do {
                feed(.passthroughCreated(node: node, eventNode: try kernel.createPassthrough(node, spec)))
            } catch {
                feed(.passthroughFailed(node: node, error))
            }
        case .writePassthrough(let node, let frames):
            do {
                try kernel.writePassthrough(node, frames)
            } catch {
                logger.error("pass-through write failed", metadata: ["node": "\(node)", "error": "\(error)"])
            }
        case .mapReadings(let node, let readings):
            feed(.mapping(node: node, readings))
        case .destroyPassthrough(let node):
            kernel.destroyPassthrough(node)
        case .report(let report):
            switch report {
            case .added(let info): delegate.deviceAdded(info)
            case .changed(let info): delegate.deviceChanged(info)
            case .removed(let id): delegate.deviceRemoved(id: id)
            case .pendingRead(let id): delegate.pendingRead(id: id)
            case .mapped(let id, let frame, let commands): delegate.mapped(id: id, frame: frame, commands: commands)
            case .lendDone(let token, let id):
                // Published first: a ListDevices after the answer shows the device as lent.
                publishIfChanged()
                complete(token, id.flatMap(core.device(id:)))
            }
        case .fireMapperTimer(let id):
            feed(.mapperTimer(id: id))
        case .log(let level, let message, let metadata):
            logger.log(level: level, "\(message)", metadata: metadata.mapValues { .string($0) })
        case .stop:
            break
        }
    }
}
