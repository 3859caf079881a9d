import Testing

@testable import vivabridge

/// The hints `run` prints name the binary the user can start in another terminal.
@Suite("Banner hints")
struct BannerTests {
    @Test("started by a path, the hints use that path; started from PATH, the name alone")
    func toolName() {
        let built = "/srv/vivabridge/.build/debug/vivabridge"
        #expect(Banner.toolName(invokedAs: built) == built)
        #expect(Banner.toolName(invokedAs: ".build/debug/vivabridge") == ".build/debug/vivabridge")
        #expect(Banner.toolName(invokedAs: "vivabridge") == "vivabridge")
    }
}
