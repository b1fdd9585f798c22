"""Keeps bovine's JSON-LD processing off the network.

bovine expands and compacts every document it receives. It carries the ActivityStreams
context itself and fetches any other context (`https://w3id.org/security/v1`, ...) over the
internet, falling back to an empty context when that fails. The interop run is loopback-only,
so the fetch is replaced by that same fallback: the run behaves the same with or without a
network, and terms outside the ActivityStreams context keep their full IRIs inside bovine.
"""

import bovine.jsonld


def _no_network_loader(**_kwargs):
    def load(url, _options=None):
        raise RuntimeError(f"offline: not fetching JSON-LD context {url}")

    return load


def install() -> None:
    bovine.jsonld.requests_document_loader = _no_network_loader
