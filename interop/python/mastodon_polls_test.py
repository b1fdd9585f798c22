#!/usr/bin/env python3
"""Drives two running FedNode nodes with Mastodon.py 2.3.3's own methods for what apps call
around a post: a poll made on node A (status_post with make_poll), voted on from node B
(poll_vote), read both ways (poll, status), and ended; a conversation muted (status_mute,
status_unmute) and its notifications stopped; posting defaults changed
(account_update_credentials(default_privacy=...), preferences) and applied to a new post; and
the smaller calls apps make (media_delete, conversations_unread, timeline direct, filters v1).
Node A must be started with a short minimum poll duration (--min-poll-duration 5) so the run
can watch a poll end. Prints ALL OK and exits 0 on success, non-zero on the first failure.
"""
import argparse
import datetime
import struct
import sys
import time
import zlib
import urllib.parse

import requests
from mastodon import Mastodon
from apitest import OOB, SCOPES, check, eventually, expect_error, step, sign_up

POLL_SECONDS = 30


def counts(poll):
    return [option.votes_count for option in poll.options]


def polls(alice, bob, domain_a):
    step("polls: made on A, voted from B, results both ways, ended")
    limits = alice.instance_v2().configuration.polls
    check(limits.max_options == 4 and limits.min_expiration == 5, f"poll limits: {limits}")
    expect_error(lambda: alice.status_post("One?", poll=alice.make_poll(["only"], expires_in=600)), "more than one")
    posted = alice.status_post("Which shot?", poll=alice.make_poll(["Left", "Right"], expires_in=POLL_SECONDS))
    check(posted.poll is not None and [o.title for o in posted.poll.options] == ["Left", "Right"], f"poll: {posted.poll}")
    found = eventually("alice resolved from B", lambda: bob.account_search(f"alice@{domain_a}", resolve=True))
    bob.account_follow(found[0])
    uri = posted.uri
    remote = eventually("the poll reaches B", lambda: [s for s in bob.search_v2(uri, resolve=True).statuses if s.poll])
    copy = remote[0]
    check(counts(copy.poll) == [0, 0] and copy.poll.voted is False, f"B's copy: {copy.poll}")
    voted = bob.poll_vote(copy.poll.id, [1])
    check(voted.voted is True and voted.own_votes == [1], f"vote on B: {voted}")
    expect_error(lambda: bob.poll_vote(copy.poll.id, [0]), "already voted")
    eventually("A counts B's vote", lambda: counts(alice.poll(posted.poll.id)) == [0, 1])
    eventually("B sees A's counts", lambda: counts(bob.poll(copy.poll.id)) == [0, 1] and bob.poll(copy.poll.id).voters_count == 1)
    left = (posted.poll.expires_at - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    time.sleep(max(0, left) + 1)
    ended = alice.poll(posted.poll.id)
    check(ended.expired is True and counts(ended) == [0, 1], f"ended on A: {ended}")
    check(bob.poll(copy.poll.id).expired is True, "ended on B")
    expect_error(lambda: bob.poll_vote(copy.poll.id, [0]), "ended", "already voted")
    eventually("alice is told her poll ended", lambda: alice.notifications(types=["poll"]), timeout=60)
    eventually("bob is told the poll he voted in ended", lambda: bob.notifications(types=["poll"]), timeout=60)


def conversation_mute(alice, bob, bob_account):
    step("conversation mute")
    root = alice.status_post("Sunrise over the bay")
    check(alice.status_mute(root).muted is True, "status_mute")
    before = len(alice.notifications())
    bob.status_favourite(root)
    bob.status_post("@alice gorgeous", in_reply_to_id=root.id)
    time.sleep(1)
    check(len(alice.notifications()) == before, "a muted conversation still notified")
    check(alice.status_unmute(root).muted is False, "status_unmute")
    bob.status_post("@alice once more", in_reply_to_id=root.id)
    eventually("notified again after unmute", lambda: len(alice.notifications()) == before + 1)


def posting_defaults(alice):
    step("posting defaults")
    me = alice.account_update_credentials(default_privacy="unlisted", default_sensitive=True, default_language="fr")
    check(me.source.privacy == "unlisted" and me.source.sensitive is True and me.source.language == "fr", f"source: {me.source}")
    prefs = alice.preferences()
    check(prefs["posting:default:visibility"] == "unlisted" and prefs["posting:default:language"] == "fr", f"preferences: {prefs}")
    # (Mastodon.py always sends `sensitive`, so only the audience and language fall back.)
    post = alice.status_post("Default audience")
    check(post.visibility == "unlisted" and post.language == "fr", f"defaults not applied: {post}")
    alice.account_update_credentials(default_privacy="public", default_sensitive=False, default_language="")


def smaller_calls(alice, bob):
    step("media_delete, conversations_unread, timeline direct, filters v1")
    media = alice.media_post(PNG, mime_type="image/png", description="a grey box")
    check(raw(alice, "DELETE", f"/api/v1/media/{media.id}").status_code == 200, "DELETE /api/v1/media/:id")
    expect_error(lambda: alice.media(media.id), "not found")
    alice.status_post("@bob dinner?", visibility="direct")
    listed = eventually("bob's conversation", lambda: bob.conversations())
    bob.conversations_read(listed[0])
    unread = raw(bob, "POST", f"/api/v1/conversations/{listed[0].id}/unread")
    check(unread.status_code == 200 and unread.json()["unread"] is True, f"conversations unread: {unread.text}")
    check([s.visibility for s in bob.timeline("direct")] == ["direct"], "timeline direct")
    made = alice.filter_create("spoiler", ["home"], irreversible=False, whole_word=True)
    check(made.phrase == "spoiler" and alice.filter(made.id).context == ["home"], f"filter_create: {made}")
    changed = alice.filter_update(made.id, phrase="spoilers")
    check(changed.phrase == "spoilers", f"filter_update: {changed}")
    alice.filter_delete(made.id)
    check(alice.filters() == [], "filter_delete")


def raw(api, method, path):
    """A call Mastodon.py 2.3.3 has no method for, with the same token (as the apps that make it)."""
    return requests.request(method, api.api_base_url + path, headers={"Authorization": f"Bearer {api.access_token}"}, timeout=20)


def png(width=64, height=48):
    """A small grey PNG, written out by hand (no imaging library needed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG = png()


def run(a, b):
    domain_a = urllib.parse.urlparse(a).netloc
    alice, _ = sign_up(a, "alice", app="FedNode polls")
    bob_a, bob_a_account = sign_up(a, "bob", app="FedNode polls")
    bob, _ = sign_up(b, "bob", app="FedNode polls")
    polls(alice, bob, domain_a)
    conversation_mute(alice, bob_a, bob_a_account)
    posting_defaults(alice)
    smaller_calls(alice, bob_a)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-a", required=True)
    parser.add_argument("--node-b", required=True)
    args = parser.parse_args()
    run(args.node_a.rstrip("/"), args.node_b.rstrip("/"))
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
