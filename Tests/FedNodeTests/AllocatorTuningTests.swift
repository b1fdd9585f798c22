@testable import Core
import Testing

@testable import FedNode

/// `AllocatorTuning`: both settings are taken, and the operator's own settings win.
@Suite struct AllocatorTuningTests {
    #if canImport(Glibc)
    @Test func glibcTakesBothSettings() {
        #expect(AllocatorTuning.apply(environment: [:]) == 2)
        #expect(AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.rtld.optional_static_tls=4096"]) == 2)
    }

    @Test func theOperatorsSettingsWin() {
        #expect(AllocatorTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1048576"]) == 1)
        #expect(AllocatorTuning.apply(environment: [
            "GLIBC_TUNABLES": "glibc.rtld.nns=2:glibc.malloc.mmap_threshold=65536", "MALLOC_TRIM_THRESHOLD_": "131072",
        ]) == 0)
        #expect(AllocatorTuning.apply(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]) == 1)
    }
    #endif
}
