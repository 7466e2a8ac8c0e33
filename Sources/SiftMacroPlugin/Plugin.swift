import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct SiftMacroPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        KeyValueReadableMacro.self,
        PropertyMarkMacro.self,
    ]
}
