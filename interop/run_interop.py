"""`make interop`: federate a real FedNode node with third-party ActivityPub servers.

Starts, on 127.0.0.1 only, a FedNode node (test mode: plain http and loopback allowed) and each
server of interop/remotes.py, then runs the same scenario with each of them in both directions:
discovery, follow, a photo post, a like, a reply, an edit, undoing the like and the follow,
and deleting a post. FedNode's side is driven through its Mastodon client API, the remote's side
as its own client would drive it. Every check reads what the receiving side stored or received;
nothing is assumed from a 2xx alone. Prints a table and exits non-zero when a check fails.

Usage: python interop/run_interop.py --fednode .build/debug/fednode [--keep DIR]
"""

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import requests

from remotes import AS_PUBLIC, BovineHerdRemote, PastureRemote, wait_for_http

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTO = os.path.join(HERE, "fixtures", "pier.jpg")
WAIT_SECONDS = 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class FedNode:
    """A `fednode serve` process and one signed-up user driven through the client API."""

    def __init__(self, binary: str, state_dir: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.domain = f"127.0.0.1:{self.port}"
        self.state_dir = state_dir
        self.log_path = os.path.join(state_dir, "fednode.log")
        log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--host", "127.0.0.1", "--data-dir", os.path.join(state_dir, "data"),
             "--domain", self.domain, "--test-mode", "--log-level", "info"],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "FEDNODE_PASSWORD_COST": "10"})
        wait_for_http(f"{self.base}/healthz", self.process, self.log_path)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def sign_up(self, username: str) -> None:
        app = requests.post(f"{self.base}/api/v1/apps", data={"client_name": "interop", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob",
                                                             "scopes": "read write follow push"}).json()
        app_token = requests.post(f"{self.base}/oauth/token", data={
            "grant_type": "client_credentials", "client_id": app["client_id"], "client_secret": app["client_secret"],
            "scope": "read write follow push"}).json()["access_token"]
        response = requests.post(f"{self.base}/api/v1/accounts", headers={"Authorization": f"Bearer {app_token}"}, data={
            "username": username, "email": f"{username}@interop.test", "password": f"{username} interop password",
            "agreement": "true", "locale": "en"})
        response.raise_for_status()
        self.token = response.json()["access_token"]
        self.username = username
        self.actor_id = f"{self.base}/users/{username}"
        self.handle = f"{username}@{self.domain}"

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        return requests.request(method, f"{self.base}{path}", headers={"Authorization": f"Bearer {self.token}"}, timeout=30, **kwargs)

    def ok(self, method: str, path: str, **kwargs):
        response = self.api(method, path, **kwargs)
        if response.status_code >= 300:
            raise Check(f"{method} {path} answered {response.status_code}: {response.text[:200]}")
        return response.json()

    def resolve_account(self, acct: str) -> dict | None:
        found = self.ok("GET", "/api/v2/search", params={"q": acct, "resolve": "true", "type": "accounts"})["accounts"]
        return found[0] if found else None

    def post_photo(self, text: str, in_reply_to: str | None = None) -> dict:
        with open(PHOTO, "rb") as fp:
            media = self.ok("POST", "/api/v2/media", files={"file": ("pier.jpg", fp, "image/jpeg")}, data={"description": "A pier at dusk"})
        data = {"status": text, "visibility": "public", "media_ids[]": [media["id"]]}
        if in_reply_to:
            data["in_reply_to_id"] = in_reply_to
        return self.ok("POST", "/api/v1/statuses", data=data)

    def status_by_uri(self, uri: str) -> dict | None:
        """A remote status as this node stores it (search resolves only what it may fetch;
        the home timeline shows what was delivered)."""
        for status in self.ok("GET", "/api/v1/timelines/home", params={"limit": 40}):
            if status["uri"] == uri:
                return status
        return None


class Check(Exception):
    """A scenario step whose outcome was not what a user would expect."""


async def eventually(what: str, probe, seconds: float = WAIT_SECONDS):
    """Polls `probe` (sync or async) until it returns something truthy."""
    deadline = time.monotonic() + seconds
    last_error = None
    while time.monotonic() < deadline:
        try:
            result = probe()
            if asyncio.iscoroutine(result):
                result = await result
            if result:
                return result
        except Check:
            raise
        except Exception as error:  # a remote still processing answers errors for a while
            last_error = error
        await asyncio.sleep(0.5)
    raise Check(f"timed out waiting for {what}" + (f" (last error: {last_error!r})" if last_error else ""))


def object_id(value) -> str | None:
    return value.get("id") if isinstance(value, dict) else value


class Scenario:
    """The scenario against one remote; each step records pass or fail in `results`."""

    def __init__(self, node: FedNode, remote):
        self.node, self.remote = node, remote
        self.results: list[tuple[str, str, str, str]] = []
        self.state: dict = {}

    async def step(self, name: str, direction: str, body, needs: tuple = ()):
        missing = [key for key in needs if key not in self.state]
        if missing:
            self.results.append((name, direction, "SKIP", f"needs {', '.join(missing)}"))
            return
        try:
            detail = await body()
            self.results.append((name, direction, "pass", detail or ""))
        except Check as error:
            self.results.append((name, direction, "FAIL", str(error)))
        except Exception as error:
            self.results.append((name, direction, "FAIL", f"{type(error).__name__}: {error}"[:300]))
            traceback.print_exc(file=sys.stderr)

    async def inbox_item(self, what: str, match):
        seen: list[str] = []

        async def probe():
            items = await self.remote.inbox()
            seen[:] = [f"{item.get('type')}({object_id(item.get('object'))})" for item in items]
            for item in items:
                if match(item):
                    return item
            return None
        try:
            return await eventually(f"{self.remote.name} to receive {what}", probe)
        except Check as error:
            raise Check(f"{error}; its inbox holds {', '.join(seen[-6:]) or 'nothing'}") from None

    # ---- FedNode -> remote
    async def discover_remote(self):
        account = self.node.resolve_account(self.remote.handle)
        if not account or account.get("url") is None and account.get("uri") is None:
            raise Check(f"search for {self.remote.handle} found nothing")
        self.state["remote_account"] = account
        return f"{self.remote.handle} -> account {account['id']}"

    async def follow_remote(self):
        account = self.state["remote_account"]
        self.node.ok("POST", f"/api/v1/accounts/{account['id']}/follow")
        follow = await self.inbox_item("the Follow", lambda a: a.get("type") == "Follow" and object_id(a.get("actor")) == self.node.actor_id)
        if isinstance(self.remote, BovineHerdRemote):
            # bovine-herd has no automatic approval: its user accepts, through its outbox.
            await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Accept",
                                    "actor": self.remote.actor_id, "to": [self.node.actor_id],
                                    "object": {"id": follow["id"], "type": "Follow", "actor": self.node.actor_id, "object": self.remote.actor_id}})

        def following():
            relationship = self.node.ok("GET", "/api/v1/accounts/relationships", params={"id[]": account["id"]})[0]
            return relationship["following"]
        await eventually("FedNode to record the Accept", following)
        self.state["following_remote"] = True
        return "Follow received, Accept recorded"

    async def post_to_remote(self):
        status = self.node.post_photo("Photo from FedNode to #interop")
        self.state["node_status"] = status
        create = await self.inbox_item("the Create", lambda a: a.get("type") == "Create" and object_id(a.get("object")) == status["uri"])
        note = create["object"] if isinstance(create["object"], dict) else await self.remote.fetch(create["object"])
        attachments = note.get("attachment") or []
        if not attachments or not attachments[0].get("url"):
            raise Check(f"the Note arrived without its photo: {note.get('attachment')!r}")
        image = requests.get(attachments[0]["url"], timeout=10)
        if image.status_code != 200 or not image.headers.get("content-type", "").startswith("image/"):
            raise Check(f"photo URL answered {image.status_code} {image.headers.get('content-type')}")
        return f"Note with {len(attachments)} photo ({attachments[0].get('mediaType')}) received"

    async def like_remote_post(self):
        status = self.state["remote_status"]
        self.node.ok("POST", f"/api/v1/statuses/{status['id']}/favourite")
        await self.inbox_item("the Like", lambda a: a.get("type") == "Like" and object_id(a.get("object")) == status["uri"])
        self.state["liked_remote"] = True
        return "Like received"

    async def reply_to_remote(self):
        status = self.state["remote_status"]
        reply = self.node.ok("POST", "/api/v1/statuses", data={"status": f"@{self.remote.handle} nice one", "in_reply_to_id": status["id"]})
        create = await self.inbox_item("the reply", lambda a: a.get("type") == "Create" and object_id(a.get("object")) == reply["uri"])
        if create["object"].get("inReplyTo") != status["uri"]:
            raise Check(f"inReplyTo is {create['object'].get('inReplyTo')!r}")
        return "reply received with inReplyTo"

    async def edit_own_post(self):
        status = self.state["node_status"]
        self.node.ok("PUT", f"/api/v1/statuses/{status['id']}", data={"status": "Photo from FedNode, edited", "media_ids[]": [
            media["id"] for media in status["media_attachments"]]})

        def edited(a: dict) -> bool:
            note = a.get("object")
            return a.get("type") == "Update" and isinstance(note, dict) and note.get("id") == status["uri"] \
                and "edited" in (note.get("content") or "")
        update = await self.inbox_item("the Update", edited)
        if not update["object"].get("updated"):
            raise Check("the edited Note has no `updated`")
        return "Update received with the new caption"

    async def unlike_remote_post(self):
        status = self.state["remote_status"]
        self.node.ok("POST", f"/api/v1/statuses/{status['id']}/unfavourite")
        await self.inbox_item("Undo(Like)", lambda a: a.get("type") == "Undo" and isinstance(a.get("object"), dict)
                              and a["object"].get("type") == "Like" and object_id(a["object"].get("object")) == status["uri"])
        return "Undo(Like) received"

    async def unfollow_remote(self):
        account = self.state["remote_account"]
        self.node.ok("POST", f"/api/v1/accounts/{account['id']}/unfollow")
        await self.inbox_item("Undo(Follow)", lambda a: a.get("type") == "Undo" and isinstance(a.get("object"), dict)
                              and a["object"].get("type") == "Follow" and object_id(a.get("actor")) == self.node.actor_id)
        return "Undo(Follow) received"

    async def delete_own_post(self):
        status = self.state["node_status"]
        self.node.ok("DELETE", f"/api/v1/statuses/{status['id']}")
        await self.inbox_item("the Delete", lambda a: a.get("type") == "Delete" and object_id(a.get("object")) == status["uri"])
        return "Delete received"

    # ---- remote -> FedNode
    async def discover_node(self):
        actor = await self.remote.lookup(self.node.handle)
        if actor.get("id") != self.node.actor_id:
            raise Check(f"WebFinger and fetch gave {actor.get('id')!r}")
        return f"{self.node.handle} -> {actor['id']}"

    def remote_account_on_node(self) -> dict:
        account = self.node.resolve_account(self.remote.handle)
        if not account:
            raise Check(f"FedNode cannot resolve {self.remote.handle}")
        return account

    async def follow_node(self):
        follow = await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Follow",
                                         "actor": self.remote.actor_id, "object": self.node.actor_id, "to": [self.node.actor_id]})
        self.state["remote_follow"] = follow
        def accepts_follow(a: dict) -> bool:
            accepted = a.get("object")
            about_follow = object_id(accepted) == follow.get("id") or (
                isinstance(accepted, dict) and accepted.get("type") == "Follow"
                and object_id(accepted.get("actor")) == self.remote.actor_id)
            return a.get("type") == "Accept" and object_id(a.get("actor")) == self.node.actor_id and about_follow
        await self.inbox_item("FedNode's Accept", accepts_follow)
        account = self.remote_account_on_node()

        def listed():
            me = self.node.ok("GET", "/api/v1/accounts/verify_credentials")
            followers = self.node.ok("GET", f"/api/v1/accounts/{me['id']}/followers")
            return any(f["id"] == account["id"] for f in followers)
        await eventually("FedNode to list the follower", listed)
        self.state["remote_follows_node"] = True
        return "Accept received; follower listed"

    def note(self, text: str, **extra) -> dict:
        return {"@context": "https://www.w3.org/ns/activitystreams", "type": "Note", "attributedTo": self.remote.actor_id,
                "content": f"<p>{text}</p>", "to": [AS_PUBLIC], "cc": [self.node.actor_id],
                "published": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **extra}

    async def create(self, note: dict) -> dict:
        if "id" not in note and hasattr(self.remote, "publish"):
            note["id"] = self.remote.new_id("note")
        return await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Create",
                                       "actor": self.remote.actor_id, "object": note, "to": note["to"], "cc": note["cc"]})

    async def post_to_node(self):
        image = {"type": "Image", "mediaType": "image/png", "url": f"{self.remote.base}/images/photo.png", "name": "a coloured square"}
        if isinstance(self.remote, BovineHerdRemote):
            # bovine-herd has no media store; the picture comes from the pasture's image provider
            # when it runs, else FedNode's own photo.
            image["url"] = self.state.get("image_url") or f"{self.node.base}/static/avatar.png"
        else:
            self.state["image_url"] = image["url"]
        create = await self.create(self.note("Photo from the remote side", attachment=[image]))
        note = create["object"]
        status = await eventually("the post in FedNode's home timeline", lambda: self.node.status_by_uri(note["id"]))
        if not status["media_attachments"]:
            raise Check("the status has no media attachment")
        self.state["remote_status"] = status
        self.state["remote_create"] = create
        return f"status {status['id']} with {len(status['media_attachments'])} attachment"

    async def like_node_post(self):
        status = self.state["node_status"]
        like = await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Like", "actor": self.remote.actor_id,
                                       "object": status["uri"], "to": [self.node.actor_id]})
        await eventually("favourites_count 1", lambda: self.node.ok("GET", f"/api/v1/statuses/{status['id']}")["favourites_count"] == 1)
        # Only a like FedNode counted can be undone meaningfully (else "back to 0" proves nothing).
        self.state["remote_like"] = like
        return "favourites_count 1"

    async def reply_to_node(self):
        status = self.state["node_status"]
        create = await self.create(self.note(f"@{self.node.username} lovely", inReplyTo=status["uri"],
                                             tag=[{"type": "Mention", "href": self.node.actor_id, "name": f"@{self.node.handle}"}]))

        def in_thread():
            context = self.node.ok("GET", f"/api/v1/statuses/{status['id']}/context")
            return any(d["uri"] == create["object"]["id"] for d in context["descendants"])
        await eventually("the reply in the thread", in_thread)
        return "reply in the status' context"

    async def edit_remote_post(self):
        note = dict(self.state["remote_create"]["object"])
        note.pop("@context", None)
        note["content"] = "<p>Photo from the remote side, edited</p>"
        note["updated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Update", "actor": self.remote.actor_id,
                                "object": note, "to": [AS_PUBLIC], "cc": [self.node.actor_id]})
        status = self.state["remote_status"]
        await eventually("the edited caption on FedNode",
                         lambda: "edited" in self.node.ok("GET", f"/api/v1/statuses/{status['id']}")["content"])
        return "status shows the new caption"

    async def unlike_node_post(self):
        status = self.state["node_status"]
        await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Undo", "actor": self.remote.actor_id,
                                "object": self.state["remote_like"], "to": [self.node.actor_id]})
        await eventually("favourites_count 0", lambda: self.node.ok("GET", f"/api/v1/statuses/{status['id']}")["favourites_count"] == 0)
        return "favourites_count back to 0"

    async def unfollow_node(self):
        await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Undo", "actor": self.remote.actor_id,
                                "object": self.state["remote_follow"], "to": [self.node.actor_id]})
        account = self.remote_account_on_node()

        def gone():
            me = self.node.ok("GET", "/api/v1/accounts/verify_credentials")
            return not any(f["id"] == account["id"] for f in self.node.ok("GET", f"/api/v1/accounts/{me['id']}/followers"))
        await eventually("the follower to leave", gone)
        return "follower removed"

    async def delete_remote_post(self):
        note = self.state["remote_create"]["object"]
        await self.remote.send({"@context": "https://www.w3.org/ns/activitystreams", "type": "Delete", "actor": self.remote.actor_id,
                                "object": note["id"] if isinstance(self.remote, BovineHerdRemote) else
                                {"id": note["id"], "type": "Tombstone"},
                                "to": [AS_PUBLIC], "cc": [self.node.actor_id]})
        status = self.state["remote_status"]

        def deleted():
            return self.node.api("GET", f"/api/v1/statuses/{status['id']}").status_code == 404
        await eventually("the status to disappear", deleted)
        return "status answers 404"

    async def run(self):
        out, back = "FedNode -> " + self.remote.name, self.remote.name + " -> FedNode"
        await self.step("discovery (WebFinger)", out, self.discover_remote)
        await self.step("discovery (WebFinger)", back, self.discover_node)
        await self.step("follow", out, self.follow_remote, needs=("remote_account",))
        await self.step("follow", back, self.follow_node)
        await self.step("photo post", out, self.post_to_remote, needs=("remote_follows_node",))
        await self.step("photo post", back, self.post_to_node, needs=("following_remote",))
        await self.step("like", out, self.like_remote_post, needs=("remote_status",))
        await self.step("like", back, self.like_node_post, needs=("node_status",))
        await self.step("reply", out, self.reply_to_remote, needs=("remote_status",))
        await self.step("reply", back, self.reply_to_node, needs=("node_status",))
        await self.step("edit post", out, self.edit_own_post, needs=("node_status",))
        await self.step("edit post", back, self.edit_remote_post, needs=("remote_create", "remote_status"))
        await self.step("undo like", out, self.unlike_remote_post, needs=("liked_remote",))
        await self.step("undo like", back, self.unlike_node_post, needs=("remote_like",))
        await self.step("delete post", out, self.delete_own_post, needs=("node_status",))
        await self.step("delete post", back, self.delete_remote_post, needs=("remote_create", "remote_status"))
        await self.step("undo follow", out, self.unfollow_remote, needs=("following_remote",))
        await self.step("undo follow", back, self.unfollow_node, needs=("remote_follows_node",))


def print_table(rows: list[tuple[str, str, str, str]]) -> None:
    widths = [max(len(row[i]) for row in rows + [("scenario", "direction", "result", "")]) for i in range(3)]
    line = f"| {'scenario':<{widths[0]}} | {'direction':<{widths[1]}} | {'result':<{widths[2]}} | detail"
    print(line)
    print(f"|-{'-' * widths[0]}-|-{'-' * widths[1]}-|-{'-' * widths[2]}-|-------")
    for name, direction, result, detail in rows:
        print(f"| {name:<{widths[0]}} | {direction:<{widths[1]}} | {result:<{widths[2]}} | {detail}")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fednode", required=True, help="path of the fednode executable")
    parser.add_argument("--keep", help="keep state and logs in this directory")
    parser.add_argument("--only", choices=["pasture", "bovine"], help="run against one server")
    args = parser.parse_args()
    state = args.keep or tempfile.mkdtemp(prefix="fednode-interop-")
    os.makedirs(state, exist_ok=True)
    remotes = []
    if args.only in (None, "pasture"):
        remotes.append(PastureRemote(os.path.join(state, "pasture"), free_port()))
    if args.only in (None, "bovine"):
        remotes.append(BovineHerdRemote(os.path.join(state, "bovine"), free_port()))
    rows, node = [], None
    try:
        node = FedNode(os.path.abspath(args.fednode), state)
        for index, remote in enumerate(remotes):
            os.makedirs(remote.state_dir, exist_ok=True)
            remote.start()
            # One FedNode user per remote, so one run's follows never leak into the other's checks.
            node.sign_up(f"alice{index}")
            scenario = Scenario(node, remote)
            await scenario.run()
            rows += scenario.results
    finally:
        for remote in remotes:
            remote.stop()
        if node:
            node.stop()
    print()
    for remote in remotes:
        print(f"{remote.name}: {remote.trait}")
    print()
    print_table(rows)
    failed = sum(1 for row in rows if row[2] != "pass")
    print(f"\n{len(rows) - failed} passed, {failed} failed")
    print(f"state and logs: {state}" if args.keep or failed else "")
    if not args.keep and not failed:
        shutil.rmtree(state, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
