import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate every server sends today,
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850 and asctime forms.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 of `text`, or nil when it is not an HTTP date.
    static func parse(_ text: String) -> Double? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        // IMF-fixdate: wkday DD Mon YYYY HH:MM:SS GMT; RFC 850: weekday DD-Mon-YY HH:MM:SS GMT.
        if fields.count == 6, fields[5] == "gmt", let day = Int(fields[1]), let month = months.firstIndex(of: fields[2]),
            var year = Int(fields[3]), let time = clock(fields[4])
        {
            if fields[3].count == 2 { year += year < 70 ? 2000 : 1900 }
            return seconds(year: year, month: month + 1, day: day, time: time)
        }
        // asctime: wkday Mon D HH:MM:SS YYYY
        if fields.count == 5, let month = months.firstIndex(of: fields[1]), let day = Int(fields[2]),
            let time = clock(fields[3]), let year = Int(fields[4])
        {
            return seconds(year: year, month: month + 1, day: day, time: time)
        }
        return nil
    }

    private static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]), (0...60).contains(parts[2]) else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    private static func seconds(year: Int, month: Int, day: Int, time: Int) -> Double? {
        guard (1...31).contains(day), year >= 1 else { return nil }
        return Double(days(fromCivil: year, month, day) * 86_400 + time)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
