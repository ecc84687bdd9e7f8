extension PlaybackEngine {
    /// The memory-pressure signal changed: under pressure the window drops to two frames at
    /// once (and critical pressure frees idle buffers); it grows back only after the level
    /// has been normal for the calm delay, counted in clock time (`updatePressure`).
    mutating func pressureChanged(to level: MemoryPressureLevel, into fx: inout PlaybackEffects) {
        pressureLevel = level
        if level != .normal {
            underPressure = true
            calmSince = nil
            if level == .critical { store.dropIdleBuffers() }
            releaseFrames(keeping: Set(desiredFrames()))
            store.trimIdle(window: windowSize)
            noteMemory()
        }
    }

    /// At each tick: pressure ends once the level has been normal for the calm delay.
    mutating func updatePressure(at t: Int64, into fx: inout PlaybackEffects) {
        let was = underPressure
        defer { windowChanged = was != underPressure }
        if pressureLevel != .normal {
            underPressure = true
            calmSince = nil
        } else if underPressure {
            if let since = calmSince {
                if t - since >= calmDelayNanoseconds {
                    underPressure = false
                    calmSince = nil
                }
            } else {
                calmSince = t
                if calmDelayNanoseconds == 0 { underPressure = false }
            }
        }
    }
}
