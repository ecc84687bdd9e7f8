import Foundation

// SVT-AV1 prints its configuration to standard error on every encode: keep its errors
// only, unless the user set SVT_LOG. Set here, before any thread can read the environment.
setenv("SVT_LOG", "1", 0)
var output = Output()
exit(Tool.run(Array(CommandLine.arguments.dropFirst()), out: &output))
