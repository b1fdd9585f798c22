import Foundation

/// Checks incoming HTTP signatures against FedNode's policy, in two phases so the caller can
/// fetch the signer's key asynchronously between them.
///
/// Accepted: draft-cavage-12 with `rsa-sha256`, `hs2019` (RSA-SHA256 for RSA keys) or no
/// algorithm, and RFC 9421 with `rsa-v1_5-sha256` or no `alg`. The signature must cover the
/// method and target, the host, the date, and for a request with a body its digest.
public struct SignatureVerifier: Sendable {
    /// How old a signature's date may be.
    public var maxAge: TimeInterval
    /// How far in the future a signature's date may be (clock skew).
    public var maxFuture: TimeInterval

    /// Creates a verifier.
    /// - Parameters:
    ///   - maxAge: oldest accepted `Date`/`created`; 12 hours like Mastodon.
    ///   - maxFuture: furthest accepted future `Date`/`created`; 1 hour.
    public init(maxAge: TimeInterval = 12 * 3600, maxFuture: TimeInterval = 3600) {
        self.maxAge = maxAge
        self.maxFuture = maxFuture
    }

    /// Parses the request's signature and checks everything that does not need the key:
    /// algorithm, covered components, freshness and the body digest.
    ///
    /// RFC 9421 (`Signature-Input`) is preferred when present; otherwise the draft-cavage
    /// `Signature` header, otherwise `Authorization: Signature ...`.
    /// - Parameters:
    ///   - request: the received request, body included.
    ///   - now: the current time.
    /// - Returns: the key id and what `verify(with:)` needs.
    /// - Throws: a `SignatureError` describing the first policy violation.
    public func prepare(_ request: SignableRequest, now: Date = Date()) throws(SignatureError) -> PendingVerification {
        if let inputs = request.header("signature-input") {
            return try prepareMessageSignature(request, inputs: inputs, now: now)
        }
        if let value = request.header("signature") {
            return try prepareCavage(request, CavageSignature.parse(value), now: now)
        }
        if let value = request.header("authorization"), value.lowercased().hasPrefix("signature ") {
            return try prepareCavage(request, CavageSignature.parse(value), now: now)
        }
        throw .missingSignature
    }

    private func prepareCavage(
        _ request: SignableRequest, _ parameters: CavageSignature.Parameters, now: Date
    ) throws(SignatureError) -> PendingVerification {
        let algorithm = parameters.algorithm?.lowercased()
        guard algorithm == nil || algorithm == "rsa-sha256" || algorithm == "hs2019" else {
            throw .unsupportedAlgorithm(parameters.algorithm ?? "")
        }
        let covered = Set(parameters.headers)
        // draft-cavage-12 2.3: (created) and (expires) are an error with rsa-* algorithms.
        if algorithm == "rsa-sha256", !covered.isDisjoint(with: ["(created)", "(expires)"]) {
            throw .malformedSignatureHeader("(created)/(expires) with rsa-sha256")
        }
        try require(covered.contains("(request-target)"), "(request-target)")
        try require(covered.contains("host"), "host")
        try require(covered.contains("date") || covered.contains("(created)"), "date")
        try checkBody(request, covered: covered)
        let dateHeader = covered.contains("date") ? request.header("date") : nil
        try checkFreshness(dateHeader: dateHeader, created: parameters.created, expires: parameters.expires, now: now)
        let text = try CavageSignature.signingString(
            for: request, headers: parameters.headers, created: parameters.created, expires: parameters.expires)
        return PendingVerification(
            keyId: parameters.keyId, scheme: .cavage, coveredComponents: parameters.headers,
            signedText: text, signature: parameters.signature)
    }

    private func prepareMessageSignature(
        _ request: SignableRequest, inputs header: String, now: Date
    ) throws(SignatureError) -> PendingVerification {
        let signatures = try MessageSignature.parseSignatures(request.header("signature") ?? "")
        let signed = try MessageSignature.parseInputs(header).filter { signatures[$0.label] != nil }
        guard let first = signed.first else { throw .missingSignature }
        // Several signatures may be present (RFC 9421 4.3); use the first one we can check.
        let input = signed.first { $0.alg == nil || $0.alg == MessageSignature.rsaAlgorithm } ?? first
        if let alg = input.alg, alg != MessageSignature.rsaAlgorithm { throw .unsupportedAlgorithm(alg) }
        guard let keyId = input.keyId, let signature = signatures[input.label] else {
            throw .malformedSignatureHeader("missing keyid")
        }
        let names = input.components.map { $0.prefix { $0 != ";" }.lowercased() }
        try checkMessageCoverage(Set(names), created: input.created)
        try checkBody(request, covered: Set(names))
        let dateHeader = names.contains("date") ? request.header("date") : nil
        try checkFreshness(dateHeader: dateHeader, created: input.created, expires: input.expires, now: now)
        let base = try MessageSignature.signatureBase(for: request, input: input)
        return PendingVerification(
            keyId: keyId, scheme: .rfc9421, coveredComponents: names, signedText: base, signature: signature)
    }

    /// RFC 9421 has no fixed list; ours: `@method`, and `@target-uri` or `@path` with
    /// `@authority` (which also covers the host), and `date` or the `created` parameter.
    private func checkMessageCoverage(_ names: Set<String>, created: Int?) throws(SignatureError) {
        try require(names.contains("@method"), "@method")
        if !names.contains("@target-uri") {
            try require(names.contains("@path"), "@target-uri")
            try require(names.contains("@authority"), "@authority")
        }
        try require(names.contains("date") || created != nil, "date")
    }

    /// A body must be covered by `Digest` or `Content-Digest`, and every digest present must match.
    private func checkBody(_ request: SignableRequest, covered: Set<String>) throws(SignatureError) {
        guard let body = request.body else { return }
        let digest = request.header("digest"), contentDigest = request.header("content-digest")
        if !body.isEmpty {
            guard digest != nil || contentDigest != nil else { throw .missingDigest }
            let isCovered = (digest != nil && covered.contains("digest"))
                || (contentDigest != nil && covered.contains("content-digest"))
            try require(isCovered, "digest")
        }
        if let digest { try BodyDigest.checkDigest(digest, body: body) }
        if let contentDigest { try BodyDigest.checkContentDigest(contentDigest, body: body) }
    }

    private func checkFreshness(dateHeader: String?, created: Int?, expires: Int?, now: Date) throws(SignatureError) {
        var times: [Date] = created.map { [Date(timeIntervalSince1970: TimeInterval($0))] } ?? []
        if let dateHeader {
            guard let date = HTTPDate.parse(dateHeader) else { throw .invalidDate(dateHeader) }
            times.append(date)
        }
        for time in times where time < now - maxAge || time > now + maxFuture {
            throw .dateOutOfRange
        }
        if let expires, TimeInterval(expires) < now.timeIntervalSince1970 { throw .dateOutOfRange }
    }

    private func require(_ condition: Bool, _ component: String) throws(SignatureError) {
        if !condition { throw .componentsNotCovered(component) }
    }
}
