import Foundation
import HTTPTypes
import HearthKit
import HearthMedia
import Hummingbird

/// Forms with a file (`multipart/form-data`: a picture for the meme maker, a profile picture).
/// Everything that can be checked before the body is read, is: up to 10 MiB is read only for a
/// signed-in viewer with a CSRF cookie and a boundary RFC 2046 allows.
extension WebRoutes {
    func fileForm(_ request: Request, back: String) async throws -> (viewer: AccountRef, form: Multipart) {
        guard let (viewer, _) = await viewer(request) else {
            await Self.discard(request)
            throw WebForms.Refused(signInFirst(back))
        }
        guard let cookie = WebForms.cookies(request)[WebForms.csrfCookie], WebForms.isToken(cookie) else {
            await Self.discard(request)
            throw WebForms.expired
        }
        guard let boundary = Multipart.boundary(request.headers[.contentType]) else {
            await Self.discard(request)
            throw WebForms.Refused(MediaRoutes.text(.badRequest, "Send the picture with the page's form."))
        }
        guard let body = try? await request.body.collect(upTo: MediaRoutes.maxBodyBytes) else {
            throw WebForms.Refused(
                MediaRoutes.text(
                    .contentTooLarge, "Not stored: the file is over \(MediaLimits.maxUploadBytes >> 20) MiB."))
        }
        let form = Multipart(body, boundary: boundary)
        guard WebSignIn.csrfMatches(request, ["csrf": form.field("csrf") ?? ""]) else { throw WebForms.expired }
        return (viewer, form)
    }

    /// Drops a refused form's body as it arrives (kept nowhere, not parsed), up to the largest
    /// allowed: a client that sends all of it before reading the answer then gets the answer.
    static func discard(_ request: Request) async {
        var seen = 0
        do {
            for try await chunk in request.body {
                seen += chunk.readableBytes
                if seen > MediaRoutes.maxBodyBytes { return }
            }
        } catch {}
    }

    /// The way to the sign-in form, back to `path` after it.
    func signInFirst(_ path: String) -> Response {
        redirect("/signin?next=" + WebText.queryEncoded(path), flash: "Sign in first.")
    }

    /// A form's answer, or the answer a `WebForms.Refused` it threw carries.
    static func answer(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch let refused as WebForms.Refused { return refused.response }
    }

    /// 429 for a form posted past `WebLimits.formBurst`, if it is; counts it otherwise.
    func formLimited(_ viewer: AccountRef) -> WebForms.Refused? {
        shared.forms.wait(viewer.id).map { seconds in
            WebForms.Refused(
                MediaRoutes.text(
                    .tooManyRequests, "Too many forms at once; wait \(seconds) s and try again.",
                    headers: [.retryAfter: String(seconds)]))
        }
    }
}
