import Foundation

var output = Output()
exit(Tool.run(Array(CommandLine.arguments.dropFirst()), out: &output))
