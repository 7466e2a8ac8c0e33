import ArgumentParser
import Sift

public struct SiftCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "sift", abstract: "Apple's predicate language.")
    public init() {}
    public func run() throws {}
}
