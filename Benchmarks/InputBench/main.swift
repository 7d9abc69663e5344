// The input thread's own work per key press: `InputBench PRESSES` serves that many presses and
// releases of a keyboard through the real LoopCore, InputCore, FrameAssembler and device mapper
// (InputDevices' `InputThreadProbe`) and prints what it handed on. Run under callgrind by
// Benchmarks/InputBench/callgrind.sh, which prints the instructions per frame.
import InputDevices

let presses = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
let result = InputThreadProbe.run(presses: presses)
print("presses \(presses), commands \(result.commands), device list published \(result.publishes) times")
