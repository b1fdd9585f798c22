#!/usr/bin/env python3
"""Drives FedNode's per-person tools with Mastodon.py: a user on node A follows and is followed
by a user on node B, hides B's domain (domain_block), lists it (domain_blocks), sees the follows
end, B's posts leave the federated timeline and B's new follow rejected, shows it again
(domain_unblock); then removes a follower of hers (account_remove_from_followers), which B
learns through Reject(Follow). Exits non-zero on failure.

    move_domain_blocks_test.py --node-a URL --node-b URL
"""
import argparse
import sys
import traceback
import urllib.parse

from apitest import check, eventually, expect_error, step
from mastodon_client_test import sign_up


def remote(api, acct):
    found = api.search_v2(acct, resolve=True)
    check(found.accounts, f"{acct} not found: {found}")
    return found.accounts[0]


def run(a, b):
    domain_b = urllib.parse.urlparse(b).netloc
    domain_a = urllib.parse.urlparse(a).netloc

    step("sign up alice on A and bob on B; they follow each other")
    alice, _, _ = sign_up(a, "alice")
    bob, _, _ = sign_up(b, "bob")
    bob_on_a = remote(alice, f"bob@{domain_b}")
    alice_on_b = remote(bob, f"alice@{domain_a}")
    alice.account_follow(bob_on_a.id)
    bob.account_follow(alice_on_b.id)
    eventually("alice follows bob", lambda: alice.account_relationships(bob_on_a.id)[0].following)
    eventually("bob is alice's follower", lambda: alice.account_relationships(bob_on_a.id)[0].followed_by)
    post = bob.status_post("a photo walk by the harbour")
    eventually("bob's post reaches A", lambda: any(s.uri == post.uri for s in alice.timeline_home()))

    step("alice hides B's domain")
    alice.domain_block(domain_b)
    check(alice.domain_blocks() == [domain_b], f"domain_blocks: {alice.domain_blocks()}")
    relationship = alice.account_relationships(bob_on_a.id)[0]
    check(relationship.domain_blocking and not relationship.following and not relationship.followed_by,
          f"relationship after hiding: {relationship}")
    check(not any(s.uri == post.uri for s in alice.timeline_home()), "bob's post still on alice's home")
    check(not any(s.uri == post.uri for s in alice.timeline_public()), "bob's post still on the federated timeline")
    eventually("B drops bob's follow of alice", lambda: not bob.account_relationships(alice_on_b.id)[0].following)
    expect_error(lambda: alice.domain_block("not a domain!"), "valid", "422")
    requested = bob.account_follow(alice_on_b.id)
    check(requested.requested, f"bob's new follow is not pending: {requested}")
    eventually("A rejects a new follow from the hidden domain",
               lambda: not (lambda r: r.requested or r.following)(bob.account_relationships(alice_on_b.id)[0]))

    step("alice shows the domain again")
    alice.domain_unblock(domain_b)
    check(alice.domain_blocks() == [], f"domain_blocks after unblock: {alice.domain_blocks()}")
    check(not alice.account_relationships(bob_on_a.id)[0].domain_blocking, "still domain_blocking")
    check(any(s.uri == post.uri for s in alice.timeline_public()), "bob's post not back on the federated timeline")

    step("bob follows alice again and she removes him from her followers")
    bob.account_follow(alice_on_b.id)
    eventually("bob follows alice again", lambda: bob.account_relationships(alice_on_b.id)[0].following)
    removed = alice.account_remove_from_followers(bob_on_a.id)
    check(not removed.followed_by, f"relationship after removal: {removed}")
    check(not any(f.id == bob_on_a.id for f in alice.account_followers(alice.me().id)), "bob still listed as follower")
    eventually("B learns bob no longer follows alice", lambda: not bob.account_relationships(alice_on_b.id)[0].following)
    print("ALL OK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-a", required=True)
    parser.add_argument("--node-b", required=True)
    args = parser.parse_args()
    try:
        run(args.node_a, args.node_b)
    except Exception:
        traceback.print_exc()
        sys.exit(1)


if __name__ == "__main__":
    main()
