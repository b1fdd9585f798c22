/// What an upload is for, which decides the outputs made from it.
public enum MediaKind: Sendable, Equatable, CaseIterable {
    /// A status attachment: a display copy of at most 1920 px on the long side (never
    /// enlarged) and a 500 x 500 thumbnail cropped around the focal point (never enlarged;
    /// a smaller source gives the largest square it holds).
    case post
    /// A profile picture: exactly 400 x 400, cropped around the focal point.
    case avatar
    /// A profile header/cover: exactly 1500 x 500, cropped around the focal point.
    case header

    /// The sizing of the main output.
    package var mainSizing: VariantSizing {
        switch self {
        case .post: return .fit(maxSide: 1920)
        case .avatar: return .fill(width: 400, height: 400, upscale: true)
        case .header: return .fill(width: 1500, height: 500, upscale: true)
        }
    }

    /// The sizing of the thumbnail, for kinds that have one.
    package var thumbnailSizing: VariantSizing? {
        switch self {
        case .post: return .fill(width: 500, height: 500, upscale: false)
        case .avatar, .header: return nil
        }
    }
}
