#!/usr/bin/env python3
"""Drives two running FedNode nodes with Mastodon.py, a real client library, the way an app
does: register an app, sign up, log in (password grant and authorization code through the
HTML form), upload a photo, post it with a caption and a hashtag, read the home timeline, edit,
favourite and comment from a second account, search the hashtag, resolve and follow an account
on the second node, receive follow and favourite notifications, read one streaming event, and
delete the post. Each step checks the entity fields apps rely on. Exits non-zero on failure.
"""
import argparse
import sys
import threading
import time
import urllib.parse
from html.parser import HTMLParser

import requests
from mastodon import Mastodon, StreamListener
from apitest import OOB, SCOPES, check, eventually, expect_error, step


class FormParser(HTMLParser):
    """Collects the login form's action and inputs, and any <code> text (the OOB code page)."""

    def __init__(self):
        super().__init__()
        self.action, self.inputs, self.codes, self._in_code = None, [], [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = attrs.get("action", "")
        elif tag == "input":
            self.inputs.append(attrs)
        elif tag == "code":
            self._in_code = True

    def handle_endtag(self, tag):
        if tag == "code":
            self._in_code = False

    def handle_data(self, data):
        if self._in_code and data.strip():
            self.codes.append(data.strip())


def authorize_in_browser(url, email, password):
    """Does what a person does in the browser: opens the authorize page, logs in, reads the code."""
    session = requests.Session()
    page = session.get(url, timeout=30)
    check(page.status_code == 200, f"authorize page answered {page.status_code}")
    form = FormParser()
    form.feed(page.text)
    check(form.action is not None, "authorize page has no form")
    data = {}
    for field in form.inputs:
        name, kind = field.get("name"), (field.get("type") or "text").lower()
        if not name or kind in ("submit", "button"):
            continue
        if kind == "password":
            data[name] = password
        elif kind == "email" or "email" in name or name in ("username", "login"):
            data[name] = email
        else:
            data[name] = field.get("value") or ""
    answer = session.post(urllib.parse.urljoin(page.url, form.action), data=data, allow_redirects=False, timeout=30)
    if answer.status_code in (301, 302, 303):
        location = answer.headers["Location"]
        return urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
    check(answer.status_code == 200, f"login answered {answer.status_code}: {answer.text[:300]}")
    shown = FormParser()
    shown.feed(answer.text)
    codes = shown.codes + [i.get("value") for i in shown.inputs if i.get("name") == "code" and i.get("value")]
    check(codes, "no authorization code shown on the out-of-band page")
    return codes[0]


class Events(StreamListener):
    """Collects what the user stream delivers."""

    def __init__(self):
        super().__init__()
        self.notifications, self.updates, self.arrived = [], [], threading.Event()

    def on_notification(self, notification):
        self.notifications.append(notification)
        self.arrived.set()

    def on_update(self, status):
        self.updates.append(status)
        self.arrived.set()


def sign_up(base, name):
    client_id, client_secret = Mastodon.create_app(f"FedNode interop {name}", scopes=SCOPES, redirect_uris=OOB,
                                                   api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
    token = api.create_account(name, f"{name} secret password", f"{name}@example.test", agreement=True, locale="en",
                               scopes=SCOPES)
    check(token, f"sign-up of {name} gave no token")
    me = api.account_verify_credentials()
    check(me.username == name and me.acct == name, f"verify_credentials after sign-up: {me}")
    return api, client_id, client_secret


def run(a, b, photo):
    domain_b = urllib.parse.urlparse(b).netloc
    domain_a = urllib.parse.urlparse(a).netloc

    step("instance")
    info = Mastodon(api_base_url=a).instance()
    check(info.configuration.statuses.max_characters >= 500, f"instance configuration: {info.configuration}")
    check("image/jpeg" in info.configuration.media_attachments.supported_mime_types, "JPEG not supported?")

    step("register app and sign up")
    _, client_id, client_secret = sign_up(a, "alice")

    step("log in with the password grant")
    alice = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=a)
    alice.log_in("alice@example.test", "alice secret password", scopes=SCOPES, allow_http=True)
    me = alice.account_verify_credentials()
    check(me.username == "alice" and me.source is not None, f"verify_credentials: {me}")

    step("log in with the authorization code flow")
    browser = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=a)
    url = browser.auth_request_url(redirect_uris=OOB, scopes=SCOPES, allow_http=True)
    code = authorize_in_browser(url, "alice@example.test", "alice secret password")
    browser.log_in(code=code, redirect_uri=OOB, scopes=SCOPES, allow_http=True)
    check(browser.account_verify_credentials().id == me.id, "code-flow token is not alice's")

    step("upload a photo")
    media = alice.media_post(photo, mime_type="image/jpeg", description="The pier at dusk", focus=(0.0, 0.5))
    check(media.type == "image" and media.url and media.preview_url, f"media entity: {media}")
    check(media.description == "The pier at dusk", f"alt text: {media.description}")
    check(requests.get(media.url, timeout=30).status_code == 200, "the uploaded photo is not served")

    step("post it with a caption and a hashtag")
    post = alice.status_post("Sunset at the pier #sunset", media_ids=[media], visibility="public")
    check("Sunset at the pier" in post.content, f"content: {post.content}")
    check([t.name for t in post.tags] == ["sunset"], f"tags: {post.tags}")
    check(len(post.media_attachments) == 1 and post.media_attachments[0].id == media.id, "attachment missing")
    check(post.account.id == me.id and post.visibility == "public", "author or visibility wrong")

    step("read it in the home timeline")
    home = alice.timeline_home()
    check(home and home[0].id == post.id, f"home timeline: {[s.id for s in home]}")

    step("edit it")
    edited = alice.status_update(post.id, status="Sunset at the old pier #sunset", media_ids=[media])
    check("old pier" in edited.content and edited.edited_at is not None, f"edit: {edited.content} {edited.edited_at}")

    step("a second account favourites and comments; alice's stream sees it")
    carol, _, _ = sign_up(a, "carol")
    events = Events()
    stream = alice.stream_user(events, run_async=True, reconnect_async=False)
    time.sleep(1.0)  # let the stream subscribe before the event happens
    favourited = carol.status_favourite(post.id)
    check(favourited.favourited is True and favourited.favourites_count == 1, f"favourite: {favourited}")
    comment = carol.status_post("What a light!", in_reply_to_id=post.id)
    check(comment.in_reply_to_id == post.id, "comment is not a reply")
    check(events.arrived.wait(20), "no streaming event arrived")
    eventually("a favourite notification on the stream", lambda: any(n.type == "favourite" for n in events.notifications), 20)
    stream.close()
    context = alice.status_context(post.id)
    check([s.id for s in context.descendants] == [comment.id], f"context descendants: {context.descendants}")
    check(alice.status(post.id).replies_count == 1, "replies_count")

    step("search the hashtag")
    found = alice.search_v2("#sunset")
    check(any(tag.name == "sunset" for tag in found.hashtags), f"hashtags: {found.hashtags}")
    check(any(s.id == post.id for s in alice.timeline_hashtag("sunset")), "tag timeline misses the post")

    step("resolve and follow an account on the second node")
    bob, _, _ = sign_up(b, "bob")
    results = alice.search_v2(f"bob@{domain_b}", resolve=True)
    check(results.accounts and results.accounts[0].acct == f"bob@{domain_b}", f"resolve: {results.accounts}")
    relationship = alice.account_follow(results.accounts[0].id)
    check(relationship.following or relationship.requested, f"relationship: {relationship}")
    eventually("the follow accepted", lambda: alice.account_relationships(results.accounts[0].id)[0].following)

    step("notifications: follow on B, favourite and mention on A")
    follows = eventually("bob's follow notification",
                         lambda: [n for n in bob.notifications(types=["follow"]) if n.account.acct == f"alice@{domain_a}"])
    check(follows[0].type == "follow", "follow notification type")
    mine = alice.notifications()
    check(any(n.type == "favourite" and n.status.id == post.id and n.account.acct == "carol" for n in mine), f"{mine}")
    check(any(n.type == "mention" and n.status.id == comment.id for n in mine), "comment notification missing")
    only = alice.notifications(types=["favourite"])
    check(only and all(n.type == "favourite" for n in only), "types[] filter")

    step("delete the post")
    alice.status_delete(post.id)
    check(all(s.id != post.id for s in alice.timeline_home()), "deleted post still in the home timeline")
    check(all(s.id != post.id for s in alice.timeline_hashtag("sunset")), "deleted post still in the tag timeline")
    expect_error(lambda: alice.status(post.id), "404", "not found")

    step("log out")
    alice.revoke_access_token(allow_http=True)
    expect_error(alice.account_verify_credentials, "401", "invalid", "unauthorized")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-a", required=True)
    parser.add_argument("--node-b", required=True)
    parser.add_argument("--photo", required=True)
    args = parser.parse_args()
    run(args.node_a.rstrip("/"), args.node_b.rstrip("/"), args.photo)
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
