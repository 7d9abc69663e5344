#!/usr/bin/env python3
"""An independent WebSocket peer for the chromium adapter's framing tests (the `websockets`
library's own frame codec, RFC 6455).

  ws_peer.py serve           prints, one per line as hex, server frames of test payloads (some
                             fragmented, with pings between fragments), then `=` and the
                             expected messages as hex
  ws_peer.py parse           parses each hex line of standard input as one masked client frame and prints its
                             opcode and payload as hex
"""
import sys

from websockets.frames import Frame, Opcode


def read_exact_from(data):
    position = 0

    def read_exact(n):  # a generator, as websockets' parser drives it
        nonlocal position
        chunk = data[position:position + n]
        position += n
        if len(chunk) < n:
            raise EOFError
        return chunk
        yield
    return read_exact


def run(generator):
    try:
        next(generator)
    except StopIteration as done:
        return done.value
    raise RuntimeError("parser wanted more")


if sys.argv[1] == "serve":
    payloads = [b"", b"{}", b'{"id":1,"result":{}}', bytes(range(256)) * 3, b"x" * 70000, "é≠😀".encode()]
    frames, messages = [], []
    for index, payload in enumerate(payloads):
        pieces = 1 if index % 2 == 0 else 3
        size = len(payload)
        for part in range(pieces):
            chunk = payload[size * part // pieces:size * (part + 1) // pieces]
            opcode = Opcode.TEXT if part == 0 else Opcode.CONT
            frames.append(Frame(opcode, chunk, fin=part == pieces - 1).serialize(mask=False))
            if pieces > 1 and part == 0:
                frames.append(Frame(Opcode.PING, b"p").serialize(mask=False))
        messages.append(payload)
    frames.append(Frame(Opcode.CLOSE, b"\x03\xe8bye").serialize(mask=False))
    for frame in frames:
        print(frame.hex())
    print("=")
    for message in messages:
        print(message.hex())
elif sys.argv[1] == "parse":
    for text in sys.stdin.read().split():
        data = bytes.fromhex(text)
        frame = run(Frame.parse(read_exact_from(data), mask=True, max_size=None, extensions=None))
        print(f"{frame.opcode.value} {frame.data.hex()}")
