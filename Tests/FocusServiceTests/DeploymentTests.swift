import Foundation
import Testing

/// Tests of what makes focusd installable: udev rules, systemd units, sysusers entry, install script.
///
/// They run the real tools (`systemd-analyze`, `systemd-sysusers`, `scripts/install`) on temporary
/// directories; a test whose tool is missing is skipped, never passed.
@Suite("Deployment")
struct DeploymentTests {
    // MARK: udev rules

    @Test("every line of the udev rules is a comment, blank, or key-operator-value pairs of known keys")
    func rulesParse() throws {
        let rules = UdevRulesSyntax(try Repo.read("udev/70-focusd.rules"))
        #expect(rules.problems == [])
        #expect(rules.rules.count > 10)
    }

    @Test("the rules checker rejects unknown keys, wrong operators, unquoted values and dangling GOTOs")
    func rulesCheckerRejectsBadLines() {
        let bad = UdevRulesSyntax("""
            # a comment is fine
            SUBSYSTEM=="input", FROB="1"
            KERNEL="event*", GROUP="focusd"
            ENV{FOCUSD_IGNORE}==1, GOTO="nowhere"
            ATTRS=="x", MODE="660"
            ENV{A}=="1", \\
              ENV{B}=="2"
            GROUP=="focusd" MODE="0660"
            """)
        #expect(bad.problems.map(\.line) == [2, 3, 4, 5, 5, 6, 8])
        #expect(bad.problems.map(\.message) == [
            "unknown key FROB",
            "KERNEL can only be matched (== or !=), not assigned with =",
            "the value of ENV must be in double quotes",
            "ATTRS needs an {attribute}",
            "MODE \"660\" is not four octal digits",
            "the rule only matches and assigns nothing",
            "expected a comma after GROUP at \"MODE=\"0660\"\"",
        ])
        let imports = UdevRulesSyntax("ENV{X}==\"1\", IMPORT{nonsense}=\"x\", RUN{shell}=\"y\"\n")
        #expect(imports.problems.map(\.message) == [
            "IMPORT{nonsense} is not one of program, builtin, file, db, cmdline, parent",
            "RUN{shell} is not RUN{program} or RUN{builtin}",
        ])
        let dangling = UdevRulesSyntax("GOTO=\"end\"\nLABEL=\"other\"\n")
        #expect(dangling.problems == [.init(line: 1, message: "GOTO \"end\" has no LABEL")])
    }

    @Test("udevadm's own parser reads the rules without complaint, and complains about a broken file",
          .enabled(if: Tool.canRunUdevadmTest))
    func rulesParseWithUdevadm() throws {
        let tmp = try TempDir()
        try FileManager.default.copyItem(atPath: Repo.path("udev/70-focusd.rules"), toPath: tmp.path + "/70-focusd.rules")
        try "SUBSYSTEM==\"input\", FROB=\"1\"\n".write(toFile: tmp.path + "/71-broken.rules", atomically: true, encoding: .utf8)
        // A private mount namespace with a tmpfs on /run: udevadm test reads the rules from
        // /run/udev/rules.d and writes its device database there, and the host sees neither.
        let script = """
            mount -n -t tmpfs tmpfs /run && mkdir -p /run/udev/rules.d && cp "$1"/*.rules /run/udev/rules.d/ \
              && udevadm test --action=add /sys/class/mem/null
            """
        let test = try Tool.run("unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh", tmp.path])
        let lines = test.output.split(separator: "\n")
        #expect(lines.contains("Reading rules file: /run/udev/rules.d/70-focusd.rules"), "\(test.output)")
        #expect(lines.contains("/run/udev/rules.d/71-broken.rules:1 Invalid key 'FROB'"), "\(test.output)")
        // The group exists only where sysusers ran, so that one message is expected here.
        let complaints = lines.filter {
            $0.contains("70-focusd.rules") && !$0.hasPrefix("Reading rules file:")
                && !$0.hasSuffix("Unknown group 'focusd', ignoring") && !$0.hasSuffix("Unknown user 'focusd', ignoring")
        }
        #expect(complaints == [], "\(test.output)")
    }

    @Test("the rules run after 60-input-id sets ID_INPUT_* and before 73-seat-late applies uaccess")
    func rulesFileOrder() throws {
        let name = try Repo.files(in: "udev").filter { $0.hasSuffix(".rules") }
        #expect(name == ["70-focusd.rules"])
        for file in name {
            #expect(file > "60-input-id.rules")
            #expect(file < "73-seat-late.rules")
        }
    }

    @Test("a device tagged FOCUSD_IGNORE=1 is skipped before any rule grants group focusd")
    func rulesSkipIgnoredDevices() throws {
        let rules = UdevRulesSyntax(try Repo.read("udev/70-focusd.rules")).rules
        let skip = try #require(rules.firstIndex {
            $0.value("ENV", "FOCUSD_IGNORE", op: "==") == "1" && $0.value("GOTO", op: "=") == "focusd_end"
        })
        let grant = try #require(rules.firstIndex { $0.value("GROUP", op: "=") == "focusd" })
        #expect(skip < grant)
        #expect(rules[grant].value("MODE", op: "=") == "0660")
        // Nothing between the skip and the end label gives access except under the access label.
        let access = try #require(rules.firstIndex { $0.value("LABEL", op: "=") == "focusd_access" })
        #expect(access == grant - 1)
        #expect(rules.filter { $0.value("GROUP", op: "=") != nil }.count == 1)
        // The file sets the ignore tag only on focusd's own pass-through devices (which it also
        // tags power-switch for logind); for any other device it is the integrator's.
        let setters = rules.filter { $0.value("ENV", "FOCUSD_IGNORE", op: "=") != nil }
        #expect(setters.count == 1)
        #expect(setters.first?.value("ATTRS", "name", op: "==") == "focusd passthrough: *")
        #expect(setters.first?.value("ATTRS", "id/bustype", op: "==") == "0006")
        #expect(setters.first?.value("TAG", op: "+=") == "power-switch")
        let setter = try #require(rules.firstIndex { $0.value("ENV", "FOCUSD_IGNORE", op: "=") != nil })
        #expect(setter < skip, "tagged before the skip, so the pass-through device gets no access change")
    }

    @Test("the rules hint 4 counts per detent for a Griffin PowerMate and 100 for a Surface Dial")
    func rulesRotaryHints() throws {
        let rules = UdevRulesSyntax(try Repo.read("udev/70-focusd.rules")).rules
        func hint(bus: String, vendor: String, product: String) -> Rule? {
            rules.first {
                $0.value("ATTRS", "id/bustype", op: "==") == bus && $0.value("ATTRS", "id/vendor", op: "==") == vendor
                    && ($0.value("ATTRS", "id/product", op: "==")?.split(separator: "|").contains { $0 == product } ?? false)
            }
        }
        let powerMate = try #require(hint(bus: "0003", vendor: "077d", product: "0410"))
        #expect(powerMate.value("ENV", "FOCUSD_COUNTS_PER_DETENT", op: "=") == "4")
        #expect(powerMate.value("ENV", "ID_INPUT_FOCUSD_ROTARY", op: "=") == "1")
        let dial = try #require(hint(bus: "0005", vendor: "045e", product: "091b"))
        #expect(dial.value("ENV", "FOCUSD_COUNTS_PER_DETENT", op: "=") == "100")
        #expect(dial.value("ENV", "ID_INPUT_FOCUSD_ROTARY", op: "=") == "1")
    }
    typealias Rule = UdevRulesSyntax.Rule

    // MARK: systemd units

    @Test("systemd-analyze verify accepts the installed service and socket units",
          .enabled(if: Tool.exists("systemd-analyze")))
    func unitsVerify() throws {
        let tmp = try TempDir()
        let build = try Placeholder.binaries(in: tmp.url.appending(path: "build"))
        let prefix = tmp.path + "/usr"
        // No DESTDIR, so ExecStart names a file that exists; --no-activate keeps the host untouched.
        let install = try Tool.run(Repo.path("scripts/install"), [
            "--prefix", prefix, "--sysconfdir", tmp.path + "/etc", "--build-dir", build, "--no-activate",
        ])
        try #require(install.status == 0, "install failed: \(install.output)")
        let unitDir = prefix + "/lib/systemd/system"
        let service = try String(contentsOfFile: unitDir + "/focusd.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/focusd\n"))

        let verify = try Tool.run("systemd-analyze", [
            "verify", "--man=no", unitDir + "/focusd.service", unitDir + "/focusd.socket",
        ], in: tmp.path)
        // verify exits 0 on some problems (unknown keys are only logged): any line about our
        // units fails the test too.
        let complaints = verify.output.split(separator: "\n").filter { $0.contains("focusd") }
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.output)")
        #expect(complaints == [], "systemd-analyze verify: \(verify.output)")
    }

    @Test("the WebSocket drop-in ships commented; uncommented it adds exactly AF_INET and AF_INET6")
    func webSocketDropIn() throws {
        let text = try Repo.read("udev/focusd-websocket.conf")
        // As shipped it changes nothing: every line is a comment or blank.
        #expect(text.split(separator: "\n").allSatisfy { $0.isEmpty || $0.hasPrefix("#") })
        let enabled = text.split(separator: "\n").filter { $0.hasPrefix("#[") || $0.hasPrefix("#Restrict") }
            .map { $0.dropFirst() }.joined(separator: "\n")
        let dropIn = UnitFile(enabled)
        #expect(dropIn["Service", "RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK AF_INET AF_INET6"])
        #expect(UnitFile(try Repo.read("udev/focusd.service"))["Service", "RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"])
    }

    @Test("the service runs as user focusd with the hardening of service.md §4, started by its socket")
    func serviceHardening() throws {
        let service = UnitFile(try Repo.read("udev/focusd.service"))
        #expect(service["Service", "Type"] == ["notify"])  // focusd says READY=1 once it serves
        #expect(service["Service", "User"] == ["focusd"])
        #expect(service["Service", "Group"] == ["focusd"])
        #expect(service["Service", "SupplementaryGroups"] == ["input"])
        #expect(service["Service", "NoNewPrivileges"] == ["yes"])
        #expect(service["Service", "ProtectSystem"] == ["strict"])
        #expect(service["Service", "ProtectHome"] == ["yes"])
        #expect(service["Service", "PrivateTmp"] == ["yes"])
        #expect(service["Service", "RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"])
        #expect(service["Service", "DevicePolicy"] == ["closed"])
        #expect(service["Service", "DeviceAllow"] == ["char-input rw", "/dev/uinput rw"])
        #expect(service["Service", "PrivateNetwork"] == [])
        #expect(service["Service", "PrivateDevices"] == [])
        #expect(service["Service", "ExecReload"] == ["/bin/kill -HUP $MAINPID"])
        #expect(service["Service", "RuntimeDirectory"] == ["focusd"])
        #expect(service["Service", "RuntimeDirectoryMode"] == ["0750"])
        #expect(service["Unit", "Requires"] == ["focusd.socket"])

        let socket = UnitFile(try Repo.read("udev/focusd.socket"))
        #expect(socket["Socket", "ListenStream"] == ["/run/focusd/focusd.sock"])
        #expect(socket["Socket", "SocketMode"] == ["0660"])
        #expect(socket["Socket", "SocketGroup"] == ["focusd"])
        #expect(socket["Socket", "DirectoryMode"] == ["0750"])

        let tmpfiles = try Repo.read("udev/focusd.tmpfiles").split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(tmpfiles.map { $0.split(separator: " ") } == [["d", "/run/focusd", "0750", "focusd", "focusd", "-"]])
    }

    // MARK: sysusers

    @Test("systemd-sysusers creates group focusd and user focusd, a member of input, in an empty root",
          .enabled(if: Tool.exists("systemd-sysusers")))
    func sysusersCreatesUser() throws {
        let tmp = try TempDir()
        let build = try Placeholder.binaries(in: tmp.url.appending(path: "build"))
        let root = tmp.path + "/root"
        let install = try Tool.run(Repo.path("scripts/install"), ["--destdir", root, "--build-dir", build])
        try #require(install.status == 0, "install failed: \(install.output)")
        // sysusers writes into an existing etc/ of the root. A bare file name is looked up in the
        // root's sysusers.d directories, so this also checks that the file went where it is found.
        try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
        let sysusers = try Tool.run("systemd-sysusers", ["--root", root, "focusd.conf"])
        try #require(sysusers.status == 0, "systemd-sysusers: \(sysusers.output)")

        let passwd = try Database(root + "/etc/passwd")
        let group = try Database(root + "/etc/group")
        let user = try #require(passwd["focusd"], "no user focusd in \(passwd.lines)")
        let focusdGroup = try #require(group["focusd"], "no group focusd in \(group.lines)")
        let input = try #require(group["input"], "no group input in \(group.lines)")
        let uid = try #require(Int(user[2]))
        #expect(uid > 0 && uid < 1000, "a system uid")
        #expect(user[3] == focusdGroup[2], "the primary group is focusd")
        #expect(input[3].split(separator: ",").contains("focusd"))
        #expect(user[6].hasSuffix("nologin"))
    }

    // MARK: install script

    @Test("install places every artifact with its listed mode, and uninstall removes all but the config")
    func installThenUninstall() throws {
        let tmp = try TempDir()
        let source = try StagedSource(in: tmp.url.appending(path: "src"))
        let build = try Placeholder.binaries(in: tmp.url.appending(path: "build"))
        let root = tmp.path + "/root"
        let script = source.path + "/scripts/install"

        // PREFIX and DESTDIR from the environment, as packagers pass them.
        let install = try Tool.run(script, ["--build-dir", build], environment: ["PREFIX": "/usr", "DESTDIR": root])
        try #require(install.status == 0, "install failed: \(install.output)")
        let expected: [(path: String, mode: Int)] = [
            ("/usr/bin/focusd", 0o755), ("/usr/bin/focusctl", 0o755), ("/usr/bin/focusd-adapter", 0o755),
            ("/usr/lib/udev/rules.d/70-focusd.rules", 0o644),
            ("/usr/lib/systemd/system/focusd.service", 0o644), ("/usr/lib/systemd/system/focusd.socket", 0o644),
            ("/usr/lib/sysusers.d/focusd.conf", 0o644), ("/usr/lib/tmpfiles.d/focusd.conf", 0o644),
            ("/usr/share/focusd/io.focusd.Focus.varlink", 0o644), ("/usr/share/focusd/io.focusd.Input.varlink", 0o644),
            ("/usr/share/doc/focusd/README.md", 0o644), ("/usr/share/doc/focusd/focusd.example.toml", 0o644),
            ("/usr/share/doc/focusd/focusd-websocket.conf", 0o644), ("/usr/share/focusd/web/focusd.js", 0o644),
            ("/usr/lib/systemd/user/focusd-adapter-chromium.service", 0o644),
            ("/usr/lib/systemd/user/focusd-adapter-atspi.service", 0o644),
            ("/usr/share/doc/focusd/adapters.md", 0o644), ("/usr/share/doc/focusd/adapters-atspi.md", 0o644),
        ]
        for (path, mode) in expected {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
            #expect(install.output.contains("installed \(root)\(path)\n"), "install prints \(path)")
        }
        let manifest = try String(contentsOfFile: root + "/usr/share/focusd/install-manifest", encoding: .utf8)
        let listed = manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }.map { String($0.dropFirst(5)) }
        #expect(listed.sorted() == expected.map(\.path).sorted())
        #expect(try String(contentsOfFile: root + "/usr/lib/systemd/system/focusd.service", encoding: .utf8)
            .contains("\nExecStart=/usr/bin/focusd\n"))
        // The adapters' user units name the installed adapter and the installed guide, not /usr/local.
        let atspiUnit = try String(contentsOfFile: root + "/usr/lib/systemd/user/focusd-adapter-atspi.service", encoding: .utf8)
        #expect(atspiUnit.contains("\nExecStart=/usr/bin/focusd-adapter atspi"))
        #expect(atspiUnit.contains("file:///usr/share/doc/focusd/adapters-atspi.md"))
        #expect(!atspiUnit.contains("/usr/local/"))
        #expect(try String(contentsOfFile: root + "/etc/focusd/focusd.toml", encoding: .utf8) == (try Repo.read("udev/focusd.toml")))

        // A second install upgrades the files but never the integrator's config.
        let edited = "# the integrator's own settings\n"
        try edited.write(toFile: root + "/etc/focusd/focusd.toml", atomically: true, encoding: .utf8)
        let again = try Tool.run(script, ["--prefix", "/usr", "--destdir", root, "--build-dir", build])
        try #require(again.status == 0, "second install failed: \(again.output)")
        #expect(try String(contentsOfFile: root + "/etc/focusd/focusd.toml", encoding: .utf8) == edited)

        let uninstall = try Tool.run(script, ["--prefix", "/usr", "--destdir", root, "--uninstall"])
        try #require(uninstall.status == 0, "uninstall failed: \(uninstall.output)")
        #expect(try Files.all(under: root) == ["etc", "etc/focusd", "etc/focusd/focusd.toml"])
    }

    @Test("the installed config holds no active setting: the daemon runs it with its defaults; the example goes to the documentation")
    func installedConfigIsInert() throws {
        let tmp = try TempDir()
        let build = try Placeholder.binaries(in: tmp.url.appending(path: "build"))
        let root = tmp.path + "/root"
        let install = try Tool.run(Repo.path("scripts/install"), ["--destdir", root, "--build-dir", build])
        try #require(install.status == 0, "install failed: \(install.output)")
        let live = try String(contentsOfFile: root + "/etc/focusd/focusd.toml", encoding: .utf8)
        let active = live.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
        #expect(active == [], "the live config has only comments")
        let example = try String(contentsOfFile: root + "/usr/local/share/doc/focusd/focusd.example.toml", encoding: .utf8)
        #expect(example == (try Repo.read("udev/focusd.example.toml")))
        #expect(live != example)

        // Through the daemon: it starts with the installed file, and reloading it reports no
        // profile and no warning (the example's knob profile and [access] grants are not live).
        let daemon = try FocusdProcess(config: live)
        defer { daemon.stop() }
        let reply = try daemon.connect().call("io.focusd.Input.ReloadConfig")
        #expect(reply["profiles"] == [])
        #expect(reply["warnings"] == [])
        // The example itself is a valid config (with profiles): only its place changed.
        let documented = try FocusdProcess(config: example)
        defer { documented.stop() }
        #expect(try documented.connect().call("io.focusd.Input.ReloadConfig")["profiles"]?.arrayValue?.isEmpty == false)
    }

    @Test("uninstall leaves directories that held something before the install")
    func uninstallKeepsForeignFiles() throws {
        let tmp = try TempDir()
        let build = try Placeholder.binaries(in: tmp.url.appending(path: "build"))
        let root = tmp.path + "/root"
        try FileManager.default.createDirectory(atPath: root + "/usr/local/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: root + "/usr/local/bin/other-tool", atomically: true, encoding: .utf8)
        let install = try Tool.run(Repo.path("scripts/install"), ["--destdir", root, "--build-dir", build])
        try #require(install.status == 0, "install failed: \(install.output)")
        let uninstall = try Tool.run(Repo.path("scripts/install"), ["--destdir", root, "--uninstall"])
        try #require(uninstall.status == 0, "uninstall failed: \(uninstall.output)")
        let left = try Files.all(under: root).filter { !$0.hasPrefix("etc") }
        #expect(left == ["usr", "usr/local", "usr/local/bin", "usr/local/bin/other-tool"])
    }

    @Test("install refuses a build directory without binaries, and uninstall without a manifest, with clear errors")
    func installErrors() throws {
        let tmp = try TempDir()
        let install = try Tool.run(Repo.path("scripts/install"), ["--destdir", tmp.path + "/root", "--build-dir", tmp.path])
        #expect(install.status == 1)
        #expect(install.output.contains("--build-dir \(tmp.path) lacks the executable(s) focusd, focusctl, focusd-adapter"))
        // One missing executable is named alone.
        let partial = try Placeholder.binaries(in: tmp.url.appending(path: "partial"))
        try FileManager.default.removeItem(atPath: partial + "/focusd-adapter")
        let short = try Tool.run(Repo.path("scripts/install"), ["--destdir", tmp.path + "/root", "--build-dir", partial])
        #expect(short.status == 1)
        #expect(short.output.contains("lacks the executable(s) focusd-adapter ("))
        let uninstall = try Tool.run(Repo.path("scripts/install"), ["--destdir", tmp.path, "--uninstall"])
        #expect(uninstall.status == 1)
        #expect(uninstall.output.contains("no install manifest at \(tmp.path)/usr/local/share/focusd/install-manifest"))
        let unknown = try Tool.run(Repo.path("scripts/install"), ["--frobnicate"])
        #expect(unknown.status == 1)
        #expect(unknown.output.contains("unknown argument '--frobnicate'"))
    }
}

// MARK: - Helpers

/// The repository this test file belongs to.
private enum Repo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func path(_ relative: String) -> String { root + "/" + relative }

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    static func files(in relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted()
    }
}

/// Running external tools, their stdout and stderr captured together.
private enum Tool {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Whether `udevadm test` can run in a private mount namespace: root, the tools, a device.
    static var canRunUdevadmTest: Bool {
        getuid() == 0 && exists("udevadm") && exists("unshare")
            && FileManager.default.fileExists(atPath: "/sys/class/mem/null")
    }

    static func exists(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        var env = ProcessInfo.processInfo.environment
        env["PREFIX"] = nil
        env["DESTDIR"] = nil
        env["SYSTEMD_PAGER"] = ""
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

/// A temporary directory, removed when the value goes away.
private final class TempDir {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "focusd-deploy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Stand-ins for the release binaries, so the tests never need a release build.
private enum Placeholder {
    /// Writes executable `focusd`, `focusctl` and `focusd-adapter` scripts into `directory`; returns its path.
    static func binaries(in directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["focusd", "focusctl", "focusd-adapter"] {
            let file = directory.appending(path: name).path
            try "#!/bin/sh\nexit 0\n".write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        }
        return directory.path
    }
}

/// A copy of the files scripts/install reads, plus an example config, so the test does not
/// depend on whether the repository has its example config yet.
private struct StagedSource {
    static let exampleConfig = "# example focusd config for the install test\n"
    let path: String

    init(in directory: URL) throws {
        path = directory.path
        let manager = FileManager.default
        for relative in [
            "scripts/install", "udev/70-focusd.rules", "udev/focusd.service", "udev/focusd.socket",
            "udev/focusd.sysusers", "udev/focusd.tmpfiles", "udev/README.md", "udev/focusd.toml",
            "udev/focusd-websocket.conf", "web/focusd.js",
            "udev/focusd-adapter-chromium.service", "udev/focusd-adapter-atspi.service",
            "docs/adapters.md", "docs/adapters-atspi.md",
            "Sources/FocusService/Resources/io.focusd.Focus.varlink",
            "Sources/FocusService/Resources/io.focusd.Input.varlink",
        ] {
            let target = directory.appending(path: relative)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(atPath: Repo.path(relative), toPath: target.path)
        }
        try Self.exampleConfig.write(
            to: directory.appending(path: "udev/focusd.example.toml"), atomically: true, encoding: .utf8)
    }
}

/// Every file and directory below `root`, relative and sorted.
private enum Files {
    static func all(under root: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }
}

/// A colon-separated database such as /etc/passwd or /etc/group, by first field.
private struct Database {
    let lines: [String]

    init(_ path: String) throws {
        lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    subscript(name: String) -> [String]? {
        lines.lazy.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
            .first { $0.first == name }
    }
}

/// A systemd unit file's settings: every value of a key in a section, in order.
private struct UnitFile {
    private var values: [String: [String]] = [:]

    init(_ text: String) {
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                values["\(section).\(key)", default: []].append(value)
            }
        }
    }

    subscript(section: String, key: String) -> [String] { values["\(section).\(key)"] ?? [] }
}
