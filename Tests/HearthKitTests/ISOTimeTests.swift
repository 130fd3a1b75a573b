import Foundation
import HearthKit
import Testing

@Suite struct ISOTimeTests {
    @Test func iso8601MatchesFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        for seconds in [0.0, 1_764_088_631.9, 951_782_400, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(TimeText.iso8601(date) == formatter.string(from: date))
        }
    }
}
