import CoreMetrics

extension ServerMetrics {
    /// An event of another node this one could not read (`NetworkDecodingError.metricLabel`), or
    /// one of its own it could not write (`unencodable`). Rare, so the counter is looked up
    /// each time (the registry hands back the one it made first).
    func networkEventRefused(reason: String) {
        CoreMetrics.Counter(
            label: "hearth_network_events_refused_total", dimensions: [("reason", reason)], factory: factory
        ).increment()
    }
}
