import CCurl

extension HTTPClientError {
    /// Maps the result of a failed libcurl transfer to the client's error.
    ///
    /// Failures that the transfer's own callbacks caused (a refused address, the size cap) are
    /// recognised by the transfer before this is called; this covers what libcurl reports itself.
    /// - Parameters:
    ///   - code: The transfer's `CURLcode`, not `CURLE_OK`.
    ///   - detail: libcurl's message for the failure.
    ///   - url: The requested URL, attached to `.invalidURL`.
    package init(curlCode code: CURLcode, detail: String, url: String) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .invalidURL(url)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
            CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            self = .connectFailed(detail)
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects
        case CURLE_FILESIZE_EXCEEDED:
            self = .responseTooLarge
        case CURLE_ABORTED_BY_CALLBACK:
            self = .cancelled
        default:
            self = .transport(detail)
        }
    }
}
