#!/usr/bin/env python3
"""Drives one running FedNode node with Mastodon.py 2.3.3 through the discovery features an app
offers: the profile directory, follow suggestions (and dismissing one), trending hashtags,
posts and links, and the link preview card of a posted link (served by a small web server this
script starts on 127.0.0.1; a node in test mode may read loopback pages). Exits non-zero on
failure and prints ALL OK at the end.
"""
import argparse
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mastodon import Mastodon
from apitest import OOB, SCOPES, check, eventually, step

PAGE = b"""<!doctype html><html><head><title>Fallback</title>
<meta property="og:title" content="Pier at dusk">
<meta property="og:description" content="A photo essay about the old pier.">
<meta property="og:site_name" content="Harbour Journal">
<meta property="og:image" content="https://cdn.example/pier.jpg">
</head><body>hello</body></html>"""


def sign_up(base, name):
    client_id, client_secret = Mastodon.create_app(f"FedNode discovery {name}", scopes=SCOPES, redirect_uris=OOB,
                                                   api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
    token = api.create_account(name, f"{name} secret password", f"{name}@example.test", agreement=True, locale="en",
                               scopes=SCOPES)
    check(token, f"sign-up of {name} gave no token")
    me = api.account_verify_credentials()
    check(me.username == name, f"verify_credentials after sign-up: {me}")
    return api, me


class Page(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


def serve_page():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/essay"


def run(base):
    step("sign up four people")
    alice, alice_me = sign_up(base, "alice")
    bob, bob_me = sign_up(base, "bob")
    carol, carol_me = sign_up(base, "carol")
    dave, dave_me = sign_up(base, "dave")

    step("profile directory")
    newest = Mastodon(api_base_url=base).directory(order="new", local=True)
    check([a.id for a in newest] == [dave_me.id, carol_me.id, bob_me.id, alice_me.id], f"directory new: {newest}")
    check(len(alice.directory(limit=2, offset=1)) == 2, "directory limit/offset")

    step("suggestions: friends of friends, then dismiss one")
    alice.account_follow(bob_me.id)
    bob.account_follow(carol_me.id)
    suggestions = alice.suggestions()
    ids = [s.account.id if "account" in s else s.id for s in suggestions]
    check(ids and ids[0] == carol_me.id, f"suggestions: {suggestions}")
    check(bob_me.id not in ids and alice_me.id not in ids, f"already followed or self suggested: {ids}")
    detailed = alice.suggestions_v2()
    check(detailed[0].account.id == carol_me.id and detailed[0].sources == ["friends_of_friends"], f"v2: {detailed}")
    check(detailed[0].source == "past_interactions", f"v2 source: {detailed[0].source}")
    check([a.id for a in alice.suggestions_v1()][:1] == [carol_me.id], "v1 suggestions")
    alice.suggestion_delete(carol_me.id)
    after = [s.account.id if "account" in s else s.id for s in alice.suggestions()]
    check(carol_me.id not in after, f"dismissed suggestion came back: {after}")

    step("trending tags and statuses")
    liked = bob.status_post("Morning light #harbourlights")
    carol.status_post("Evening light #harbourlights")
    dave.status_post("Only mine #lonelytag")
    alice.status_favourite(liked.id)
    dave.status_reblog(liked.id)
    tags = Mastodon(api_base_url=base).trending_tags()
    check([t.name for t in tags][:2] == ["harbourlights", "lonelytag"], f"trending tags: {tags}")
    check(len(tags[0].history) == 7 and tags[0].history[0].accounts == "2", f"history: {tags[0].history}")
    trending = alice.trending_statuses()
    check(trending and trending[0].id == liked.id, f"trending statuses: {[s.id for s in trending]}")

    step("a posted link gets its preview card, and trends")
    server, url = serve_page()
    try:
        post = alice.status_post(f"Read this: {url}")
        card = eventually("a card on the post", lambda: alice.status(post.id).card)
        check(card.title == "Pier at dusk" and card.provider_name == "Harbour Journal", f"card: {card}")
        check(card.image == "https://cdn.example/pier.jpg" and card.type == "link", f"card: {card}")
        links = alice.trending_links()
        check([link.url for link in links] == [url], f"trending links: {links}")
        check(len(links[0].history) == 7, f"link history: {links[0].history}")
    finally:
        server.shutdown()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", required=True)
    args = parser.parse_args()
    run(args.node.rstrip("/"))
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
