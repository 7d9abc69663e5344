import Foundation
import Testing
import Varlink

/// The Python `varlink` package (31.0.0) talking to our server: an independent implementation of
/// the protocol, its IDL parser included. Fails (does not skip) when python3 or the package is missing.
@Suite("Interoperability with the Python varlink package", .timeLimit(.minutes(1)))
struct PythonPeerTests {
    @Test("python varlink introspects the service, calls, streams and receives errors")
    func pythonClient() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let scriptPath = server.directory + "/peer.py"
        try pythonPeerScript.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }

        let check = try runPython(["-c", "import varlink, importlib.metadata as m; print(m.version('varlink'))"])
        try #require(
            check.status == 0,
            "python3 with the varlink package is required: run `pip install varlink==31.0.0` (\(check.error))")
        #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines) == "31.0.0", "expected varlink 31.0.0")

        let run = try runPython([scriptPath, server.path])
        try #require(run.status == 0, "the python peer failed: \(run.error)")
        let result = try JSONValue.parse(run.output)
        #expect(result["interfaces"] == ["org.varlink.service", "org.example.test"])
        #expect(result["info"]?["vendor"] == "focusd tests")
        #expect(result["description"]?.stringValue == testInterfaceDescription)
        #expect(result["echo"] == ["text": "hello", "count": 2])
        #expect(result["add"] == ["sum": ["x": 4, "y": 6]])
        #expect(result["count"] == [1, 2, 3])
        #expect(result["error"] == ["name": "org.example.test.Failed", "parameters": ["reason": "on purpose"]])
        #expect(result["missing"] == ["name": "org.varlink.service.InterfaceNotFound", "parameters": ["interface": "org.example.missing"]])
    }

    @Test("a python client killed mid-stream is noticed and its stream ends")
    func killedMidStream() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let scriptPath = server.directory + "/victim.py"
        try pythonStreamingVictimScript.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptPath, server.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let input = Pipe()  // held open: the client waits on it until killed
        process.standardInput = input
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        try #require(line.hasPrefix("ready 1"), "the python client did not start its stream (python3 and varlink 31.0.0 are required): \(line)")
        #expect(try server.stats()["streamsCut"] == 0)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let noticed = server.waitForStats { $0.streamsCut == 1 }
        #expect(noticed, "the server did not notice the killed client")
    }

    private func runPython(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            Issue.record("cannot run python3: \(error)")
            throw error
        }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
