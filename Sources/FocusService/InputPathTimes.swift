/// Where a device frame's time goes between the kernel and the clients, kept at log level
/// `debug` and logged when focusd stops: for each frame that made a command other than a release
/// (a press, a repeat, a turn: what acts on focus), its kernel timestamp
/// (CLOCK_REALTIME, µs), when the input thread handed it to the event loop (woken, read,
/// assembled into a frame, mapped), when the loop began running it and when its writes were
/// flushed (router, engine, encoding, one write per connection). The real-kernel latency
/// scenario (78) prints the summary next to the clients' figures.
///
/// Bounded: the last `capacity` frames (a ring), so a long-running debug daemon stays small.
/// Used on the event loop only.
final class InputPathTimes {
    struct Sample {
        /// Kernel timestamp to hand-over, hand-over to the loop running it, running to flushed.
        var read: Int32, hop: Int32, loop: Int32
    }

    let capacity: Int
    private(set) var samples: [Sample] = []
    private var next = 0
    /// Frames noted since the start (more than `samples` holds once the ring wrapped).
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        samples.reserveCapacity(capacity)
    }

    /// One frame's four times (µs on CLOCK_REALTIME).
    func note(kernel: Int64, handed: Int64, started: Int64, flushed: Int64) {
        func clamp(_ value: Int64) -> Int32 { Int32(clamping: value) }
        let sample = Sample(read: clamp(handed - kernel), hop: clamp(started - handed), loop: clamp(flushed - started))
        if samples.count < capacity {
            samples.append(sample)
        } else {
            samples[next] = sample
        }
        next = (next + 1) % capacity
        count += 1
    }

    /// One line: median and p99 of each stage over the frames kept, or nil when there are none.
    var summary: String? {
        guard !samples.isEmpty else { return nil }
        func stage(_ name: String, _ value: (Sample) -> Int32) -> String {
            let sorted = samples.map(value).sorted()
            func at(_ p: Double) -> Int32 { sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))] }
            return "\(name) median \(at(0.5)) us p99 \(at(0.99)) us"
        }
        return "input path over the last \(samples.count) of \(count) frames that acted: "
            + [stage("kernel->handed (input thread: wake, read, map)", \.read),
               stage("handed->loop (hop)", \.hop),
               stage("loop->flushed (router, engine, writes)", \.loop)].joined(separator: "; ")
    }
}
