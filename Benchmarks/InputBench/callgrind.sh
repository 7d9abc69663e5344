#!/bin/bash
# Instructions the input thread's own code costs per frame (a key press is two frames: press and
# release), counted by callgrind (repeatable on a loaded machine, unlike the clock): the release
# build of InputBench serves 1,100 and, in a second run, 100 presses; (total(1,100) − total(100))
# / 2,000 frames is printed. Covers LoopCore, InputCore, FrameAssembler and the device mapper;
# not the kernel calls (epoll_wait, libevdev's reads, timerfd) nor the hop to the event loop.
# Usage: Benchmarks/InputBench/callgrind.sh. Keeps the 1,100-press profile in $KEEP when set
# (for callgrind_annotate).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/deps bench  # valgrind, on a fresh machine
swift build -c release --product InputBench >&2
bench=$(swift build -c release --show-bin-path)/InputBench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
strip -g -o "$dir/InputBench" "$bench"
total() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.$1" "$dir/InputBench" "$1" 2>"$dir/valgrind.$1" >&2
    [ -n "${KEEP:-}" ] && cp "$dir/callgrind.$1" "$KEEP/" || true
    awk '/^totals:/ {print $2}' "$dir/callgrind.$1"
}
many=$(total 1100)
few=$(total 100)
echo "instructions: 1,100 presses $many, 100 presses $few; per frame (press or release): $(( (many - few) / 2000 ))"
