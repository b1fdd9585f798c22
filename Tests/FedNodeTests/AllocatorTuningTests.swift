import Testing

@testable import FedNode

/// `AllocatorTuning`: glibc accepts the settings, and an operator's own `malloc` tunables win.
@Suite struct AllocatorTuningTests {
    @Test func glibcAcceptsTheSettings() {
        // `mallopt` answers 0 for a parameter number or value it does not know.
        #expect(AllocatorTuning.apply(environment: [:]))
        #expect(AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.rtld.optional_static_tls=4096"]))
    }

    @Test func operatorsMallocTunablesWin() {
        #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1048576"]))
        #expect(!AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.rtld.nns=2:glibc.malloc.arena_max=2"]))
    }
}
