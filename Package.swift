// swift-tools-version: 6.1
// focusd: the SwiftUI / tvOS focus model as a Linux daemon driven by physical input devices.
import PackageDescription

/// Release builds of the daemon and the adapter link libstdc++ statically (see
/// scripts/static-libstdc++/libstdc++.so), with lld, packed relative relocations and no exported
/// symbol table: the static Swift runtime's link arguments export every symbol (`-export-dynamic`),
/// and a position-independent executable carries one 24-byte relocation per pointer; ld.so reads
/// both whole at start, so they stayed resident: 1.8 MiB of focusd's 16 MiB budget (ServiceBench
/// (b): 16.1 → 14.3 MiB). Nothing looks the programs' own symbols up at run time (the runtime
/// finds its metadata through its sections; crash backtraces read the file's symbol table).
let leanReleaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-L", Context.packageDirectory + "/scripts/static-libstdc++",
            "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ],
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "focusd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "focusd", targets: ["focusd"]),
        .executable(name: "focusctl", targets: ["focusctl"]),
        .executable(name: "focusd-adapter", targets: ["focusd-adapter"]),
        .library(name: "AdapterKit", targets: ["AdapterKit"]),
        .library(name: "FocusEngine", targets: ["FocusEngine"]),
        .library(name: "Varlink", targets: ["Varlink"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // System libraries: one Swift file per library owns its pointers (see InputDevices).
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // libinput is loaded on first use, not linked (the header comes from libinput-dev).
        .target(name: "CLibinputLoader"),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // epoll, timerfd, eventfd and the evdev ioctls, which Glibc does not export: libc only.
        .target(name: "CInputLinux"),
        .target(name: "CMalloc"),
        // sd-bus (libsystemd) for the atspi adapter's accessibility bus; AtspiBus/SdBus.swift owns its pointers.
        .systemLibrary(name: "CSdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // The operating system seam: errno, descriptors, files, sockets, clocks, signals (Glibc only).
        .target(name: "SystemCalls", dependencies: ["CMalloc"]),

        // Varlink interface definitions: the parser (names for routing, types for the generator).
        // Its own target, with no dependency, so the code generator builds without SwiftNIO.
        .target(name: "VarlinkIDL"),
        // The Swift the build generates instead of committing it (issue 25): the Codable
        // conformances of the wire types from the `.varlink` files, and the texts the programs
        // embed. The Codegen plugin runs it for FocusWire, FocusService and ChromiumAdapter.
        .executableTarget(name: "focusd-codegen", dependencies: ["VarlinkIDL", "SystemCalls"]),
        .plugin(name: "Codegen", capability: .buildTool(), dependencies: ["focusd-codegen"]),

        // Pure cores: no I/O, no Glibc.
        .target(name: "FocusEngine"),
        .target(name: "InputMapping"),
        // The configuration file: TOML, its schema, service settings and profile reading. Depends on
        // InputMapping for the Profile types it fills in; InputMapping knows nothing of files.
        .target(name: "FocusConfig", dependencies: ["InputMapping"]),

        // The platform edge.
        .target(
            name: "InputDevices",
            dependencies: [
                "InputMapping", "SystemCalls", "CInputLinux", "CLibevdev", "CLibinputLoader", "CLibudev",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Varlink",
            dependencies: [
                "SystemCalls", "VarlinkIDL",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The accessibility-bus side of `focusd-adapter atspi` (adapters.md §3): sd-bus, the bus
        // thread, the accessible trees and the scenes built from them.
        .target(name: "AtspiBus", dependencies: ["FocusEngine", "CSdBus"]),
        // All wire code: the JSON form of the engine's types (their Codable conformances and the
        // fast readers and writers of the hot messages), scene files (decoded as the socket decodes
        // scenes), the wire form of io.focusd.Input devices and the method tables. FocusEngine
        // holds no wire code; FocusWire depends on it, never the reverse.
        // The conformances are generated from the interfaces by the Codegen plugin (WireTypes.txt).
        .target(
            name: "FocusWire", dependencies: ["FocusEngine", "InputMapping", "Varlink", "SystemCalls"],
            exclude: ["WireTypes.txt"], plugins: ["Codegen"]),
        .target(
            name: "FocusService",
            dependencies: [
                "FocusConfig", "FocusEngine", "FocusWire", "InputMapping", "InputDevices", "Varlink", "SystemCalls", "CMalloc",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Resources"],
            // EmbeddedResources' texts (the Resources, web/focusd.js, web/demo.html), generated.
            plugins: ["Codegen"]
        ),
        .executableTarget(
            name: "focusd",
            dependencies: [
                "FocusService", "FocusConfig", "FocusWire", "FocusEngine", "InputMapping", "Varlink",
                .product(name: "Logging", package: "swift-log"),
            ],
            // Release builds link lean (see leanReleaseLinking above).
            linkerSettings: leanReleaseLinking
        ),
        .executableTarget(
            name: "focusctl",
            dependencies: [
                "Varlink", "FocusEngine", "FocusWire", "SystemCalls", "CLibevdev",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What every adapter shares: a poll loop and a client of focusd's public Focus interface
        // that owns scenes, sends their diffs and survives focusd restarting (adapters.md §1).
        .target(name: "AdapterKit", dependencies: ["FocusEngine", "FocusWire", "Varlink", "SystemCalls"]),
        // The adapters: Chromium over the DevTools protocol (ChromiumAdapter) and AT-SPI.
        .target(name: "ChromiumAdapter", dependencies: ["AdapterKit", "FocusEngine", "FocusWire", "Varlink", "SystemCalls", "CMalloc"], exclude: ["Page"], plugins: ["Codegen"]),
        .executableTarget(
            name: "focusd-adapter",
            dependencies: [
                "AdapterKit", "ChromiumAdapter", "AtspiBus", "FocusEngine", "FocusConfig", "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // As focusd's (leanReleaseLinking): an adapter's budget is 16 MiB too (adapters.md §4).
            linkerSettings: leanReleaseLinking
        ),
        .executableTarget(
            name: "FocusBench",
            dependencies: ["FocusEngine", "FocusWire"],
            path: "Benchmarks/FocusBench"
        ),
        .executableTarget(
            name: "InputBench",
            dependencies: ["InputDevices"],
            path: "Benchmarks/InputBench",
            exclude: ["callgrind.sh"]
        ),
        // Reading an SDL_GameControllerDB file beside a bare read of it (docs/gamepad-databases.md).
        .executableTarget(
            name: "GamepadBench",
            dependencies: ["FocusService", "FocusConfig", "FocusWire", "SystemCalls"],
            path: "Benchmarks/GamepadBench"
        ),
        .executableTarget(
            name: "ServiceBench",
            dependencies: ["Varlink", "FocusEngine", "FocusWire", "SystemCalls"],
            path: "Benchmarks/ServiceBench"
        ),
        // The event loop's half of a key press, the input thread played by the harness
        // (Benchmarks/LoopBench/callgrind.sh counts its instructions).
        .executableTarget(
            name: "LoopBench",
            dependencies: [
                "FocusService", "InputDevices", "InputMapping", "CCallgrind",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/LoopBench",
            exclude: ["callgrind.sh"]
        ),
        .target(name: "CCallgrind", path: "Benchmarks/CCallgrind"),
        // Simulated input devices (uinput/uhid) and a bare evdev reader for Tests/RealKernel.
        .executableTarget(
            name: "focusd-testdevice",
            dependencies: ["CLibevdev", "CInputLinux"],
            path: "Tests/RealKernel/TestDevice"
        ),

        .testTarget(
            name: "FocusEngineTests",
            dependencies: [
                "FocusEngine", "FocusWire",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Scenarios"],
            resources: [.copy("Examples"), .copy("Android")]
        ),
        .testTarget(
            name: "InputMappingTests", dependencies: ["InputMapping", "FocusConfig", "FocusWire"],
            exclude: ["Devices", "Gamepads", "Scenarios"]),
        .testTarget(name: "FocusConfigTests", dependencies: ["FocusConfig", "InputMapping"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "InputDevicesTests", dependencies: ["InputDevices", "SystemCalls"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink"]),
        .testTarget(name: "AtspiBusTests", dependencies: ["AtspiBus", "FocusEngine"]),
        .testTarget(name: "AdapterKitTests", dependencies: ["AdapterKit", "FocusEngine", "Varlink", "SystemCalls"]),
        .testTarget(name: "ChromiumAdapterTests", dependencies: ["ChromiumAdapter"], exclude: ["peer"]),
        .testTarget(
            name: "FocusServiceTests",
            dependencies: [
                "FocusService", "FocusConfig", "FocusWire", "Varlink", "FocusEngine", "InputMapping", "InputDevices",
                "SystemCalls", .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            exclude: ["watch-capture.txt", "peer"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
