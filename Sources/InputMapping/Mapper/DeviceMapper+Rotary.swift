// The crown: counts → detents with a kept remainder, acceleration for focus moves, edit streams.

extension DeviceMapper {
    /// How many items one detent moves at a speed (input.md §5: N ticks → more moves when fast).
    func accelerationFactor(_ velocity: Double) -> Int {
        let threshold = settings.rotary.accelerationThreshold
        guard threshold > 0, abs(velocity) > threshold else { return 1 }
        return min(settings.rotary.accelerationMax, 1 + Int(abs(velocity) / threshold))
    }

    mutating func rotate(_ rawCounts: Double, time: Int64, now: Int64, context: FocusContext) -> [MappedCommand] {
        guard var accumulator = rotary else { return [] }
        let counts = settings.rotary.reverse ? -rawCounts : rawCounts
        let (detents, fraction, velocity) = accumulator.add(counts, timeUsec: time)
        rotary = accumulator
        var output: [MappedCommand] = []
        if context.editing {
            edit = EditStream(lastMono: now, lastKernel: time, idleDeadline: now + Int64(settings.rotary.editIdleMs) * 1000)
            output.append(MappedCommand(
                command: "crown", phase: .rotate, detents: detents, fraction: fraction, velocity: velocity, eventTimeUsec: time))
            return output
        }
        if edit != nil {
            // Focus left the edited node: the edit stream ends here.
            output.append(crownRelease(time: time))
            edit = nil
        }
        guard detents != 0 else { return output }
        output.append(MappedCommand(
            command: "crown", phase: .rotate, detents: detents * accelerationFactor(velocity), fraction: fraction,
            velocity: velocity, eventTimeUsec: time))
        return output
    }

    /// The end of an edit stream: a crown `release` with no motion.
    func crownRelease(time: Int64) -> MappedCommand {
        MappedCommand(
            command: "crown", phase: .release, detents: 0, fraction: rotary.map { $0.remainder / $0.countsPerDetent } ?? 0,
            velocity: 0, eventTimeUsec: time)
    }
}
