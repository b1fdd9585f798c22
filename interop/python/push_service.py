#!/usr/bin/env python3
"""A Web Push service on loopback, as a browser vendor's would be, for FedNode's push tests.

    push_service.py PORT FILE          (standalone: records every push as a JSON line in FILE)

Every POST is recorded with its path, headers and body, and answered 201 Created, except paths
starting with /gone/, answered 410 Gone (an unsubscribed browser). The helpers check a push the
way a real push service and user agent do: `verify_vapid` checks the RFC 8292 Authorization
header (ES256 JWT signed by the key in k=, audience, expiry, subject), `decrypt` undoes the
RFC 8291 aes128gcm encryption with the subscription's private key and auth secret (http_ece).
"""
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url_decode(text):
    text = text.strip()
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """An HTTP server in a background thread that keeps every push it receives."""

    def __init__(self, port=0, record_file=None):
        self.pushes, self.lock, self.record_file = [], threading.Lock(), record_file
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length > 0 else b""
                status = 410 if self.path.startswith("/gone/") else 201
                service.record({"path": self.path, "status": status, "headers": {k.lower(): v for k, v in self.headers.items()},
                                "body": base64.b64encode(body).decode()})
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()

    def record(self, push):
        with self.lock:
            self.pushes.append(push)
            if self.record_file:
                with open(self.record_file, "a") as handle:
                    handle.write(json.dumps(push) + "\n")

    def received(self, path_prefix="/"):
        with self.lock:
            return [p for p in self.pushes if p["path"].startswith(path_prefix)]


def verify_vapid(headers, expected_key, audience, now=None):
    """Checks `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292 3); returns the JWT claims."""
    now = now or time.time()
    value = headers.get("authorization", "")
    if not value.startswith("vapid "):
        raise AssertionError(f"not a vapid Authorization: {value!r}")
    params = dict(part.strip().split("=", 1) for part in value[len("vapid "):].split(","))
    if params.get("k") != expected_key:
        raise AssertionError(f"k={params.get('k')} is not the node's VAPID key {expected_key}")
    header_b64, claims_b64, signature_b64 = params["t"].split(".")
    header = json.loads(b64url_decode(header_b64))
    if header.get("alg") != "ES256":
        raise AssertionError(f"JWT alg {header}")
    signature = b64url_decode(signature_b64)
    if len(signature) != 64:
        raise AssertionError("ES256 signature is not r||s (64 bytes)")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(params["k"]))
    try:
        key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID JWT signature does not verify with k")
    claims = json.loads(b64url_decode(claims_b64))
    if claims.get("aud") != audience:
        raise AssertionError(f"aud {claims.get('aud')} is not {audience}")
    if not (now < claims.get("exp", 0) <= now + 24 * 3600 + 60):
        raise AssertionError(f"exp {claims.get('exp')} is not within 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise AssertionError(f"sub {claims.get('sub')} is not a mailto: or https: contact")
    return claims


def decrypt(push, private_value, auth):
    """Decrypts an aes128gcm push (RFC 8291) with the subscription's private key and auth secret."""
    if push["headers"].get("content-encoding") != "aes128gcm":
        raise AssertionError(f"Content-Encoding {push['headers'].get('content-encoding')}")
    private_key = ec.derive_private_key(private_value, ec.SECP256R1())
    plaintext = http_ece.decrypt(base64.b64decode(push["body"]), private_key=private_key, auth_secret=auth, version="aes128gcm")
    return json.loads(plaintext)


def main():
    port, record_file = int(sys.argv[1]), sys.argv[2]
    service = PushService(port, record_file).start()
    print(f"ready {service.origin}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        service.stop()


if __name__ == "__main__":
    main()
