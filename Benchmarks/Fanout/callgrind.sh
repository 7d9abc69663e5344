#!/bin/bash
# Instructions one `Move` with 8 monitors costs focusd, counted by callgrind (repeatable on a
# loaded machine, unlike the clock): focusd under valgrind, a persistent 2-node scene, then the
# compiled client of ServiceBench's case a′ (`fanout time SOCK 8 N 0 bench`) making 1,100 and,
# in a second run, 100 moves; (total(1,100) − total(100)) / 1,000 is printed.
# Usage: Benchmarks/Fanout/callgrind.sh [FOCUSD] (default .build/release/focusd, the deployment
# build: its debug info is stripped, valgrind 3.19 cannot read it). Keeps the profiles of the
# 1,100-move run in $KEEP when set (for callgrind_annotate).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/deps bench  # valgrind, on a fresh machine
focusd=${1:-.build/release/focusd}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cc -O2 -o "$dir/fanout" Benchmarks/Fanout/fanout.c
strip -g -o "$dir/focusd" "$focusd"
: >"$dir/focusd.toml"
scene='{"method":"io.focusd.Focus.SetScene","parameters":{"scene":{"name":"bench","persist":true,"root":{"id":"root","frame":{"x":0,"y":0,"width":120,"height":60},"children":[{"id":"t0_0","focusable":true,"frame":{"x":0,"y":0,"width":50,"height":50}},{"id":"t0_1","focusable":true,"frame":{"x":60,"y":0,"width":50,"height":50}}]}}}}'
total() {
    local moves=$1 sock="$dir/focusd-$1.sock"
    valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.$moves" \
        "$dir/focusd" --socket "$sock" --config "$dir/focusd.toml" --log-level warning --no-devices 2>"$dir/valgrind.$moves" &
    local pid=$!
    for _ in $(seq 600); do [ -S "$sock" ] && break; sleep 0.1; done
    python3 - "$sock" "$scene" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\0")
reply = b""
while not reply.endswith(b"\0"): reply += s.recv(65536)
assert b'"error"' not in reply, reply
PY
    "$dir/fanout" time "$sock" 8 "$moves" 0 bench >/dev/null
    kill -TERM $pid
    wait $pid || true
    [ -n "${KEEP:-}" ] && cp "$dir/callgrind.$moves" "$KEEP/" || true
    awk '/^totals:/ {print $2}' "$dir/callgrind.$moves"
}
many=$(total 1100)
few=$(total 100)
echo "instructions: 1,100 moves $many, 100 moves $few; per Move with 8 monitors: $(( (many - few) / 1000 ))"
