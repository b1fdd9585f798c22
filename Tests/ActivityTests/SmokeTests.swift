import Testing
@testable import Activity
