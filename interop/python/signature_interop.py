#!/usr/bin/env python3
"""Cross-checks FedNode's HTTP Signatures against independent Python implementations.

Plays a small remote server on 127.0.0.1: two actors (their keys made here), their inboxes,
and a client that sends the node signed Follow activities:
  * `pycavage` signs with `httpsig` (draft-cavage-12, rsa-sha256, Mastodon's header set);
  * `pyrfc` signs with `http-message-signatures` (RFC 9421, rsa-v1_5-sha256, Content-Digest).
Everything the node sends here (signed GETs of the actors, Accept and Create deliveries) is
verified with `httpsig`, the key fetched from the node's actor document. Each observation is
written as one JSON line to --report; the Swift test reads them.
"""
import argparse
import base64
import datetime
import hashlib
import json
import sys
import threading
import time
import uuid
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from http_message_signatures import HTTPMessageSigner, HTTPSignatureKeyResolver, algorithms
from httpsig.sign import HeaderSigner
from httpsig.verify import HeaderVerifier

AS_CONTEXT = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"]
ACTORS = ("pycavage", "pyrfc")


class Report:
    """Appends one JSON object per line, flushed at once, so the reader sees progress."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.file = open(path, "a", encoding="utf-8")

    def write(self, **fields):
        with self.lock:
            self.file.write(json.dumps(fields) + "\n")
            self.file.flush()


def new_key():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
    return private_pem, public_pem.decode()


def actor_document(base, name, public_pem):
    actor = f"{base}/users/{name}"
    return {
        "@context": AS_CONTEXT, "id": actor, "type": "Person", "preferredUsername": name,
        "inbox": f"{actor}/inbox", "outbox": f"{actor}/outbox", "followers": f"{actor}/followers",
        "endpoints": {"sharedInbox": f"{base}/inbox"},
        "publicKey": {"id": f"{actor}#main-key", "owner": actor, "publicKeyPem": public_pem},
    }


def fetch_public_key(key_id):
    """The PEM of `key_id`, read from its actor document (served unsigned by the node)."""
    actor_url = key_id.split("#")[0]
    document = requests.get(actor_url, headers={"Accept": "application/activity+json"}, timeout=10).json()
    key = document["publicKey"]
    if isinstance(key, list):
        key = next(k for k in key if k.get("id") == key_id)
    return key["publicKeyPem"]


def verify_cavage(method, path, headers, body):
    """Verifies a draft-cavage signature with httpsig; returns (verified, key_id, detail)."""
    header = headers.get("Signature")
    if not header:
        return False, None, "no Signature header"
    params = dict(part.split("=", 1) for part in header.split(","))
    key_id = params.get("keyId", "").strip('"')
    required = ["(request-target)", "host", "date"] + (["digest"] if body else [])
    try:
        verifier = HeaderVerifier(headers=dict(headers), secret=fetch_public_key(key_id), required_headers=required,
                                  method=method, path=path, sign_header="signature")
        verified = verifier.verify()
    except Exception as error:  # httpsig raises plain Exception for missing headers
        return False, key_id, str(error)
    if verified and body:
        expected = "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()
        if headers.get("Digest") != expected:
            return False, key_id, "Digest does not match the body"
    return bool(verified), key_id, "ok" if verified else "signature mismatch"


def make_handler(base, public_keys, report):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _reply(self, status, payload=None):
            body = json.dumps(payload or {}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/activity+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            name = self.path.rstrip("/").split("/")[-1]
            if not self.path.startswith("/users/") or name not in public_keys:
                return self._reply(404, {"error": "not found"})
            verified, key_id, detail = verify_cavage("GET", self.path, self.headers, b"")
            report.write(kind="get", path=self.path, signed="Signature" in self.headers,
                         verified=verified, key_id=key_id, detail=detail)
            self._reply(200, actor_document(base, name, public_keys[name]))

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            verified, key_id, detail = verify_cavage("POST", self.path, self.headers, body)
            try:
                activity_type = json.loads(body).get("type")
            except ValueError:
                activity_type = None
            report.write(kind="post", path=self.path, type=activity_type, verified=verified, key_id=key_id, detail=detail)
            self._reply(202 if verified else 401)

    return Handler


def follow_activity(base, name, target):
    actor = f"{base}/users/{name}"
    return {"@context": "https://www.w3.org/ns/activitystreams", "id": f"{actor}#follows/{uuid.uuid4()}",
            "type": "Follow", "actor": actor, "object": target}


def send_cavage(base, private_pem, inbox, target, tamper=False):
    """POSTs a Follow signed by httpsig the way Mastodon signs; `tamper` alters the body after signing."""
    body = json.dumps(follow_activity(base, "pycavage", target)).encode()
    url = requests.utils.urlparse(inbox)
    headers = {"Host": url.netloc, "Date": formatdate(usegmt=True), "Content-Type": "application/activity+json",
               "Digest": "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()}
    signer = HeaderSigner(key_id=f"{base}/users/pycavage#main-key", secret=private_pem, algorithm="rsa-sha256",
                          headers=["(request-target)", "host", "date", "digest", "content-type"], sign_header="signature")
    signed = signer.sign(headers, method="POST", path=url.path)
    if tamper:
        body = body.replace(b"Follow", b"Bollow")
    return requests.post(inbox, data=body, headers=dict(signed), timeout=15).status_code


class KeyResolver(HTTPSignatureKeyResolver):
    def __init__(self, private_pem):
        self.private_pem = private_pem

    def resolve_private_key(self, key_id):
        return self.private_pem

    def resolve_public_key(self, key_id):
        raise NotImplementedError


def send_rfc9421(base, private_pem, inbox, target, tamper=False):
    """POSTs a Follow signed per RFC 9421 by http-message-signatures (with Content-Digest)."""
    body = json.dumps(follow_activity(base, "pyrfc", target)).encode()
    request = requests.Request("POST", inbox, data=body,
                               headers={"Content-Type": "application/activity+json", "Date": formatdate(usegmt=True)}).prepare()
    signer = HTTPMessageSigner(signature_algorithm=algorithms.RSA_V1_5_SHA256, key_resolver=KeyResolver(private_pem))
    signer.sign(request, key_id=f"{base}/users/pyrfc#main-key", label="sig1",
                covered_component_ids=("@method", "@target-uri", "content-digest", "content-type", "date"),
                created=datetime.datetime.now(datetime.timezone.utc), body=body)
    if tamper:
        request.body = body.replace(b"Follow", b"Bollow")
    with requests.Session() as session:
        return session.send(request, timeout=15).status_code


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--inbox", required=True, help="the node inbox to send to")
    parser.add_argument("--target", required=True, help="the local actor to follow")
    parser.add_argument("--report", required=True)
    parser.add_argument("--lifetime", type=float, default=90)
    args = parser.parse_args()

    base = f"http://127.0.0.1:{args.port}"
    keys = {name: new_key() for name in ACTORS}
    report = Report(args.report)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(base, {n: k[1] for n, k in keys.items()}, report))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    report.write(kind="ready")

    for name, send in (("cavage", send_cavage), ("rfc9421", send_rfc9421)):
        private_pem = keys["pycavage" if name == "cavage" else "pyrfc"][0]
        report.write(kind="client", name=f"{name}-tampered", status=send(base, private_pem, args.inbox, args.target, tamper=True))
        report.write(kind="client", name=name, status=send(base, private_pem, args.inbox, args.target))

    deadline = time.time() + args.lifetime
    while time.time() < deadline:
        time.sleep(0.2)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
