import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate every server sends today,
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850 and asctime forms. Any bytes
/// are safe: a field that is not a date, or a year outside 1…9999, is nil, never a trap.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 of `text`, or nil when it is not an HTTP date.
    static func parse(_ text: String) -> Double? {
        // A date is 29 characters; RFC 850's weekday names make it at most 33. Anything far
        // longer is not a date, and is not split.
        guard text.utf8.count <= 64 else { return nil }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        // IMF-fixdate: wkday DD Mon YYYY HH:MM:SS GMT; RFC 850: weekday DD-Mon-YY HH:MM:SS GMT.
        if fields.count == 6, fields[5] == "gmt", let day = number(fields[1], digits: 1...2),
            let month = months.firstIndex(of: fields[2]), var year = number(fields[3], digits: 2...4),
            let time = clock(fields[4])
        {
            if fields[3].count == 2 { year += year < 70 ? 2000 : 1900 }
            return seconds(year: year, month: month + 1, day: day, time: time)
        }
        // asctime: wkday Mon D HH:MM:SS YYYY
        if fields.count == 5, let month = months.firstIndex(of: fields[1]), let day = number(fields[2], digits: 1...2),
            let time = clock(fields[3]), let year = number(fields[4], digits: 4...4)
        {
            return seconds(year: year, month: month + 1, day: day, time: time)
        }
        return nil
    }

    /// The value of `text` when it is only ASCII digits, as many as `digits` allows.
    private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
        let bytes = text.utf8
        guard digits.contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { number(String($0), digits: 2...2) }
        guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2],
            h < 24, m < 60, s <= 60
        else { return nil }
        return h * 3600 + m * 60 + s
    }

    private static func seconds(year: Int, month: Int, day: Int, time: Int) -> Double? {
        guard (1...31).contains(day), (1...9999).contains(year) else { return nil }
        return Double(days(fromCivil: year, month, day) * 86_400 + time)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    /// Years 1…9999 only: the products stay far inside `Int`.
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
