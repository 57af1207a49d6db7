// swift-tools-version: 6.1
import PackageDescription

// The project's mutation tester (`scripts/mutate`): a package of its own, so that swift-syntax never
// becomes a dependency of metronome.
let package = Package(
  name: "mutation-tester",
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
  ],
  targets: [
    .target(
      name: "Mutation",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
      ]
    ),
    .executableTarget(
      name: "mutate",
      dependencies: ["Mutation", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .testTarget(name: "MutationTests", dependencies: ["Mutation"]),
  ],
  swiftLanguageModes: [.v6]
)
