/// Points where a test can stop a disk cache to see what happens in between (the scan held
/// back, a file cut between opening and reading). Empty outside tests.
struct DiskCacheHooks: Sendable {
    /// Called on the scan's thread before it lists the folder.
    var beforeScan: (@Sendable () -> Void)?
    /// Called with an entry's path after it is opened and before its body is read.
    var beforeBodyRead: (@Sendable (String) -> Void)?

    init(
        beforeScan: (@Sendable () -> Void)? = nil,
        beforeBodyRead: (@Sendable (String) -> Void)? = nil
    ) {
        self.beforeScan = beforeScan
        self.beforeBodyRead = beforeBodyRead
    }
}
