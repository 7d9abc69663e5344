import Testing

@testable import FocusService

@Suite("Input path times (debug summary of where a device frame's time goes)")
struct InputPathTimesTests {
    @Test("the summary gives each stage's median and p99 from the four times of each frame")
    func stages() throws {
        let times = InputPathTimes(capacity: 100)
        #expect(times.summary == nil)
        for i in 0..<100 {
            let kernel: Int64 = 1_000_000 * Int64(i)
            // read i+1 µs, hop 10 µs, loop 200+i µs
            times.note(kernel: kernel, handed: kernel + Int64(i + 1), started: kernel + Int64(i + 11), flushed: kernel + Int64(2 * i + 211))
        }
        let summary = try #require(times.summary)
        #expect(summary.contains("over the last 100 of 100 frames that acted"))
        #expect(summary.contains("kernel->handed (input thread: wake, read, map) median 51 us p99 99 us"))
        #expect(summary.contains("handed->loop (hop) median 10 us p99 10 us"))
        #expect(summary.contains("loop->flushed (router, engine, writes) median 250 us p99 298 us"))
    }

    @Test("only the last `capacity` frames are kept: a long-running daemon's summary stays small and current")
    func ring() throws {
        let times = InputPathTimes(capacity: 10)
        for _ in 0..<25 { times.note(kernel: 0, handed: 5_000, started: 5_000, flushed: 5_000) }
        for _ in 0..<10 { times.note(kernel: 0, handed: 7, started: 7, flushed: 7) }
        #expect(times.samples.count == 10)
        let summary = try #require(times.summary)
        #expect(summary.contains("over the last 10 of 35 frames that acted"))
        #expect(summary.contains("median 7 us p99 7 us"))
    }
}
