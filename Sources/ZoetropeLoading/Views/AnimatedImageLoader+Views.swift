import Foundation
import Zoetrope

extension AnimatedImageLoader {
    /// Shows the image `request` asks for on `display`, as Nuke's `loadImage(with:into:)`
    /// and Kingfisher's `setImage(with:)` do for image views: one call per view, from the
    /// main actor.
    ///
    /// - Cancels what `display` asked for before (a reused cell shows only its new image).
    /// - A memory hit shows the poster at once, before this call returns.
    /// - Otherwise shows `options.placeholder` (if any), then the image: an animation is
    ///   played while it downloads (frames as they arrive) and while the display is
    ///   visible; a still from the memory cache is shown without a player.
    /// - Displays showing the same request (URL and decoding options) share one player,
    ///   so one decoder, whose frames each of them shows.
    /// - A failure shows `options.failureImage` (if any) and calls `options.completion`.
    ///
    /// The loader holds `display` weakly: a display that is freed leaves its player, which
    /// stops when no display is left.
    @MainActor
    public func load(_ request: ImageRequest, into display: any AnimationDisplay, options: ViewLoadOptions = ViewLoadOptions()) {
        let id = ObjectIdentifier(display)
        views.unbind(id)
        let key = request.key
        if request.cachePolicy != .reloadIgnoringCache, let image = context.memory.image(for: key) {
            display.show(image.poster, index: 0)
            if image.isAnimated {
                let (playback, _) = views.playback(for: key)
                views.bind(display, to: playback, options: options)
                if playback.player == nil {
                    let player = AnimationPlayer(
                        image: image, display: playback.group, clock: options.clock, configuration: options.playerConfiguration)
                    playback.player = player
                    player.play()
                }
            }
            options.completion?(.success(()))
            return
        }
        if let placeholder = options.placeholder { display.show(placeholder, index: -1) }
        let (playback, isNew) = views.playback(for: key)
        views.bind(display, to: playback, options: options)
        if !isNew {
            if playback.player != nil { options.completion?(.success(())) }
            return
        }
        playback.loading = Task { @MainActor [weak self, weak playback] in
            guard let self, let playback else { return }
            do {
                let player = try await self.player(
                    for: request, display: playback.group, clock: options.clock, configuration: options.playerConfiguration)
                guard !Task.isCancelled, !playback.group.isEmpty else {
                    player.stop()
                    return
                }
                playback.player = player
                playback.loading = nil
                player.play()
                for member in playback.group.members { member.options.completion?(.success(())) }
            } catch {
                playback.loading = nil
                guard !(error is CancellationError), !Task.isCancelled else { return }
                let members = playback.group.members
                self.views.endIfUnused(playback)
                for member in members {
                    guard let display = member.display, self.views.isBound(member.id, to: playback) else { continue }
                    if let failure = member.options.failureImage { display.show(failure, index: -1) }
                    member.options.completion?(.failure(error))
                    self.views.unbind(member.id)
                }
            }
        }
    }

    /// Shows the image at `url` on `display`, as `load(_:into:options:)` with an
    /// `ImageRequest` at the loader's decoding options.
    @MainActor
    public func load(_ url: URL, into display: any AnimationDisplay, options: ViewLoadOptions = ViewLoadOptions()) {
        load(request(url), into: display, options: options)
    }

    /// Stops what `display` asked for with `load(_:into:options:)`: it leaves its shared
    /// player (which stops when no display is left) and its download (which stops when no
    /// request is left).
    @MainActor
    public func cancelLoad(for display: any AnimationDisplay) {
        views.unbind(ObjectIdentifier(display))
    }
}
