"""The third-party ActivityPub servers `make interop` federates with, and how the driver
acts for their users.

Each remote starts as its own process on 127.0.0.1, exposes one actor, and offers the same
four things to the scenarios: look an account up by WebFinger, send an activity as its actor,
publish an object (so receivers can dereference it), and list what its actor's inbox received.
"""

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))
AS_PUBLIC = "https://www.w3.org/ns/activitystreams#Public"


def wait_for_http(url: str, process: subprocess.Popen, log_path: str, seconds: float = 30) -> None:
    """Polls `url` until it answers, or fails with the server's log tail."""
    import requests

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            requests.get(url, timeout=2)
            return
        except requests.RequestException:
            time.sleep(0.3)
    with open(log_path) as fp:
        tail = fp.read()[-2000:]
    raise RuntimeError(f"{url} never answered; log tail:\n{tail}")


class Remote:
    """What the scenarios need from a third-party server."""

    name = "remote"
    #: what makes this server worth running, for the results table
    trait = ""

    def __init__(self, state_dir: str, port: int):
        self.state_dir = state_dir
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None
        self.actor_id = ""
        self.handle = ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _spawn(self, args: list[str], log_name: str) -> str:
        log_path = os.path.join(self.state_dir, log_name)
        log = open(log_path, "w")
        self.process = subprocess.Popen([sys.executable, *args], stdout=log, stderr=subprocess.STDOUT, cwd=self.state_dir)
        return log_path

    def new_id(self, kind: str) -> str:
        return f"{self.base}/assets/{kind}-{uuid.uuid4().hex}"

    async def lookup(self, acct: str) -> dict:
        raise NotImplementedError

    async def send(self, activity: dict) -> dict:
        """Sends `activity` as the remote's actor; returns it as the remote published it."""
        raise NotImplementedError

    async def inbox(self) -> list[dict]:
        raise NotImplementedError


class PastureRemote(Remote):
    """fediverse-pasture's test actor (interop/servers/pasture_app.py): verifies the HTTP
    signature of every inbox POST, answers a Follow with an Accept at once, serves published
    objects as static files. The driver signs what the actor sends with the actor's own key."""

    name = "fediverse-pasture"
    trait = "auto-accepts follows; signed inbox POSTs"

    def start(self) -> None:
        log = self._spawn([os.path.join(HERE, "servers", "pasture_app.py"), self.state_dir, str(self.port)], "pasture.log")
        wait_for_http(f"{self.base}/actor", self.process, log)
        self.actor_id = f"{self.base}/actor"
        self.handle = f"pasture@127.0.0.1:{self.port}"
        with open(os.path.join(self.state_dir, "actor.json")) as fp:
            from fediverse_pasture.data_provider.models import ActorData

            self.actor_data = ActorData(**json.load(fp))

    def _bovine_actor(self):
        from fediverse_pasture.data_provider import bovine_actor_for_actor_data

        actor, _ = bovine_actor_for_actor_data(self.actor_id, self.actor_data)
        return actor

    def new_id(self, kind: str) -> str:
        return f"{self.base}/assets/{kind}-{uuid.uuid4().hex}.jsonap"

    def publish(self, document: dict) -> None:
        """Writes `document` where the pasture serves it (its id ends in .jsonap)."""
        name = document["id"].rsplit("/", 1)[1]
        with open(os.path.join(self.state_dir, "assets", name), "w") as fp:
            json.dump(document, fp)

    async def lookup(self, acct: str) -> dict:
        from bovine.clients import lookup_uri_with_webfinger

        async with aiohttp.ClientSession() as session:
            actor = self._bovine_actor()
            await actor.init(session=session)
            url, _ = await lookup_uri_with_webfinger(session, f"acct:{acct}", domain=f"http://{acct.split('@', 1)[1]}")
            if url is None:
                return {}
            return await actor.get(url)

    async def send(self, activity: dict) -> dict:
        activity.setdefault("id", self.new_id(activity["type"].lower()))
        if isinstance(activity.get("object"), dict) and activity["type"] in ("Create", "Update"):
            self.publish(activity["object"])
        self.publish(activity)
        async with aiohttp.ClientSession() as session:
            actor = self._bovine_actor()
            await actor.init(session=session)
            inboxes = set()
            for target in activity.get("to", []) + activity.get("cc", []):
                if target == AS_PUBLIC or target.startswith(self.base):
                    continue
                document = await actor.get(target)
                inboxes.add(document.get("endpoints", {}).get("sharedInbox") or document["inbox"])
            for inbox in inboxes:
                await actor.post(inbox, activity)
        return activity

    async def inbox(self) -> list[dict]:
        path = os.path.join(self.state_dir, "inbox.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as fp:
            return [json.loads(line) for line in fp if line.strip()]


class BovineHerdRemote(Remote):
    """bovine-herd (interop/servers/bovine_herd_app.py): a store-backed server that answers
    every GET of an actor or object with 401 unless it carries a valid HTTP signature
    (authorized fetch), signs its own fetches, and delivers what its users post to their
    outbox (ActivityPub client-to-server). The driver is its user's client, authenticated
    with an Ed25519 did:key (bovine's Moo-Auth-1)."""

    name = "bovine-herd"
    trait = "requires signed fetches; C2S outbox"

    def start(self) -> None:
        db = os.path.join(self.state_dir, "bovine.sqlite3")
        setup = subprocess.run(
            [sys.executable, os.path.join(HERE, "servers", "bovine_herd_app.py"), "setup", db, self.base, "milou"],
            capture_output=True, text=True, cwd=self.state_dir, timeout=60)
        if setup.returncode != 0:
            raise RuntimeError(f"bovine-herd setup failed: {setup.stderr[-2000:]}")
        account = json.loads(setup.stdout.strip().splitlines()[-1])
        with open(os.path.join(self.state_dir, "account.json"), "w") as fp:
            json.dump(account, fp)
        self.actor_id, self.secret = account["actor_id"], account["secret"]
        self.handle = f"milou@127.0.0.1:{self.port}"
        log = self._spawn([os.path.join(HERE, "servers", "bovine_herd_app.py"), "serve", db, str(self.port)], "bovine.log")
        wait_for_http(f"{self.base}/.well-known/nodeinfo", self.process, log)

    def _client(self):
        from bovine import BovineClient

        return BovineClient(domain=self.base, actor_id=self.actor_id, secret=self.secret)

    async def lookup(self, acct: str) -> dict:
        # bovine's proxyUrl endpoint would resolve the acct: URI itself, but its WebFinger
        # lookup always uses https://HOST (quirk documented in docs/federation.md): the driver
        # does the WebFinger step with bovine's own function over http, and bovine-herd then
        # fetches the actor with a signed GET through proxyUrl, as its clients do.
        from bovine.clients import lookup_uri_with_webfinger

        async with aiohttp.ClientSession() as session:
            url, _ = await lookup_uri_with_webfinger(session, f"acct:{acct}", domain=f"http://{acct.split('@', 1)[1]}")
        if url is None:
            return {}
        async with self._client() as client:
            return await client.proxy(url)

    async def send(self, activity: dict) -> dict:
        activity.pop("id", None)
        if isinstance(activity.get("object"), dict) and activity["type"] == "Create":
            activity["object"].pop("id", None)
        async with self._client() as client:
            response = await client.send_to_outbox(activity)
            response.raise_for_status()
            location = response.headers.get("location")
            # bovine gives the activity (and a created object) ids of its own.
            published = await client.get(location)
            if isinstance(published.get("object"), str) and activity["type"] in ("Create", "Update"):
                published["object"] = await client.get(published["object"])
            return published

    async def fetch(self, url: str) -> dict:
        async with self._client() as client:
            return await client.get(url)

    async def inbox(self) -> list[dict]:
        async with self._client() as client:
            collection = await client.get(client.information["inbox"])
            items, page, pages = [], collection.get("first"), 0
            items += collection.get("orderedItems", [])
            while page and pages < 10:
                document = await client.get(page) if isinstance(page, str) else page
                items += document.get("orderedItems", [])
                page, pages = document.get("next"), pages + 1
            resolved = []
            for item in items:
                if isinstance(item, str):
                    # Through proxyUrl: bovine answers from its store what it received, the
                    # way its clients read their inbox.
                    try:
                        item = await client.proxy(item)
                    except Exception:
                        continue
                resolved.append(item)
            return resolved
