import CLCMS2
import Zoetrope

extension ICCProfile {
    /// The profile's description (its `desc` tag, or the English `mluc` entry), or nil when
    /// the profile cannot be opened or has none.
    public var profileDescription: String? {
        guard data.count >= 132, data.count <= LCMSProfile.maxProfileBytes,
            let profile = data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else {
            return nil
        }
        defer { cmsCloseProfile(profile) }
        let needed = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1, needed <= 4096 else { return nil }
        var text = [CChar](repeating: 0, count: Int(needed))
        _ = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, needed)
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let description = String(decoding: bytes, as: UTF8.self)
        return description.isEmpty ? nil : description
    }
}
