/// The Python script the interoperability test runs: the `varlink` package (31.0.0) as an
/// independent client. It prints one JSON object with what it saw; argv[1] is the socket path.
let pythonPeerScript = #"""
import json
import sys

import varlink

path = sys.argv[1]
result = {}
client = varlink.Client(address="unix:" + path)
result["interfaces"] = client.get_interfaces()
result["info"] = client.info
result["description"] = client.get_interface("org.example.test").description
with client.open("org.example.test") as test:
    result["echo"] = test.Echo("hello", 2)
    result["add"] = test.Add({"x": 1, "y": 2}, {"x": 3, "y": 4})
    result["count"] = [reply["value"] for reply in test.Count(3, _more=True)]
    try:
        test.Fail("on purpose")
        result["error"] = None
    except varlink.VarlinkError as error:
        result["error"] = {"name": error.error(), "parameters": error.parameters()}
try:
    client.get_interface("org.example.missing")
    result["missing"] = None
except varlink.VarlinkError as error:
    result["missing"] = {"name": error.error(), "parameters": error.parameters()}
print(json.dumps(result))
"""#

/// A Python client that starts a stream, reports "ready" after the first reply, then waits to be
/// killed (reading its stdin, which the test holds open).
let pythonStreamingVictimScript = #"""
import sys

import varlink

client = varlink.Client(address="unix:" + sys.argv[1])
with client.open("org.example.test") as test:
    replies = test.Tick(5, _more=True)
    first = next(replies)
    print(f"ready {first['value']}", flush=True)
    sys.stdin.read()
"""#
