/// A key `zoetrope play` answers, decoded from the bytes a terminal sends.
enum TerminalKey: Equatable {
    case togglePause
    case stepForward
    case stepBackward
    case faster
    case slower
    case quit

    /// The keys in `bytes`, in order; unknown bytes and sequences are skipped.
    static func parse(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            // Arrow keys: ESC [ C / ESC [ D (or ESC O C / ESC O D in application mode).
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == 0x5B || bytes[i + 1] == 0x4F {
                switch bytes[i + 2] {
                case 0x43: keys.append(.stepForward)
                case 0x44: keys.append(.stepBackward)
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case 0x20: keys.append(.togglePause)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: keys.append(.quit)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.faster)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.slower)
            case UInt8(ascii: "l"), UInt8(ascii: "."): keys.append(.stepForward)
            case UInt8(ascii: "h"), UInt8(ascii: ","): keys.append(.stepBackward)
            default: break
            }
            i += 1
        }
        return keys
    }
}
