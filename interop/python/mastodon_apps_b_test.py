#!/usr/bin/env python3
"""Drives two running FedNode nodes with Mastodon.py 2.3.3's own methods for what apps use
beyond posting: filters v2 (keywords, statuses, `filtered` on timelines), lists and list
timelines, followed hashtags (a tagged post from node B reaching a home timeline on node A),
and direct-message conversations. Each step checks the fields apps rely on. Exits non-zero on
failure and prints ALL OK at the end.
"""
import argparse
import sys
import urllib.parse

from mastodon import Mastodon
from apitest import OOB, SCOPES, check, eventually, expect_error, step, sign_up


def filters(alice, bob):
    step("filters v2: create with keywords, add a keyword and a status")
    created = alice.create_filter_v2("Spoilers", ["home", "public"], "warn", expires_in=3600,
                                     keywords_attributes=[{"keyword": "finale", "whole_word": True}])
    check(created.title == "Spoilers" and created.context == ["home", "public"], f"filter: {created}")
    check([k.keyword for k in created.keywords] == ["finale"] and created.expires_at is not None, f"keywords: {created}")
    keyword = alice.add_filter_keyword_v2(created, "ending", whole_word=False)
    check(keyword.keyword == "ending" and keyword.whole_word is False, f"keyword: {keyword}")
    check(len(alice.filter_keywords_v2(created)) == 2, "filter_keywords_v2")
    check([f.id for f in alice.filters_v2()] == [created.id], "filters_v2")
    check(sorted(f.phrase for f in alice.filters()) == ["ending", "finale"], "v1 filters")

    step("filters v2: filtered on the home timeline, hide removes")
    spoiler = bob.status_post("Tonight's finale was wild")
    plain = bob.status_post("A calm harbour")
    home = eventually("bob's posts in alice's home", lambda: (lambda h: h if len(h) >= 2 else None)(
        [s for s in alice.timeline_home() if s.id in (spoiler.id, plain.id)]))
    marked = next(s for s in home if s.id == spoiler.id)
    check(marked.filtered and marked.filtered[0].keyword_matches == ["finale"], f"filtered: {marked.filtered}")
    check(next(s for s in home if s.id == plain.id).filtered == [], "the plain post is not filtered")
    status_row = alice.add_filter_status_v2(created, plain)
    check(status_row.status_id == plain.id and len(alice.filter_statuses_v2(created)) == 1, f"filter status: {status_row}")
    alice.update_filter_v2(created, filter_action="hide")
    ids = [s.id for s in alice.timeline_home()]
    check(spoiler.id not in ids and plain.id not in ids, f"hide filter left {ids}")
    alice.delete_filter_status_v2(status_row)
    alice.delete_filter_keyword_v2(keyword)
    alice.delete_filter_v2(created)
    check(alice.filters_v2() == [], "filter deleted")
    expect_error(lambda: alice.create_filter_v2("", ["home"], "warn"), "422", "blank")


def lists(alice, bob, bob_account, carol_account):
    step("lists: create, add a followed account, refuse an unfollowed one")
    alice.account_follow(bob_account)
    made = alice.list_create("Friends", replies_policy="list", exclusive=False)
    check(made.title == "Friends" and made.replies_policy == "list" and made.exclusive is False, f"list: {made}")
    alice.list_accounts_add(made, [bob_account])
    check([a.id for a in alice.list_accounts(made)] == [bob_account.id], "list_accounts")
    check([l.id for l in alice.account_lists(bob_account)] == [made.id], "account_lists")
    expect_error(lambda: alice.list_accounts_add(made, [carol_account]), "422", "followed")
    renamed = alice.list_update(made, "Close friends", replies_policy="none", exclusive=True)
    check(renamed.title == "Close friends" and renamed.exclusive is True, f"list_update: {renamed}")
    check([l.title for l in alice.lists()] == ["Close friends"], "lists")

    step("lists: the list timeline has the member's posts")
    post = bob.status_post("Fresh photos from the market")
    timeline = eventually("the post in the list timeline", lambda: alice.timeline_list(made))
    check(timeline[0].id == post.id, f"timeline_list: {[s.id for s in timeline]}")
    check(post.id not in [s.id for s in alice.timeline_home()], "exclusive list keeps bob off home")
    alice.list_accounts_delete(made, [bob_account])
    check(alice.list_accounts(made) == [], "member removed")
    alice.list_delete(made)
    check(alice.lists() == [], "list deleted")


def hashtags(alice, dana, domain_b):
    step("followed hashtags: follow, list, a post from node B reaches alice's home")
    tag = alice.tag_follow("lighthouse")
    check(tag.name == "lighthouse" and tag.following is True, f"tag_follow: {tag}")
    check([t.name for t in alice.followed_tags()] == ["lighthouse"], "followed_tags")
    check(alice.tag("lighthouse").following is True, "tag().following")
    # Node A learns of dana's posts once someone there follows dana; alice follows the tag only.
    relay, _ = sign_up(alice.api_base_url, "relay", app="FedNode apps B")
    found = eventually("dana resolved from node A", lambda: relay.account_search(f"dana@{domain_b}", resolve=True))
    relay.account_follow(found[0])
    eventually("relay's follow accepted", lambda: relay.account_relationships(found[0])[0].following)
    remote = dana.status_post("The old #Lighthouse at dusk")
    home = eventually("dana's tagged post in alice's home",
                      lambda: [s for s in alice.timeline_home() if s.uri == remote.uri], 60)
    check(home[0].account.acct == f"dana@{domain_b}", f"author: {home[0].account.acct}")
    untagged = alice.tag_unfollow("lighthouse")
    check(untagged.following is False and alice.followed_tags() == [], "tag_unfollow")


def conversations(alice, bob):
    step("conversations: a direct post, unread for the recipient, then read")
    sent = alice.status_post("@bob are you coming tonight?", visibility="direct")
    listed = eventually("bob's conversation", lambda: bob.conversations())
    check(listed[0].unread is True and listed[0].last_status.id == sent.id, f"conversation: {listed[0]}")
    check([a.username for a in listed[0].accounts] == ["alice"], f"participants: {listed[0].accounts}")
    read = bob.conversations_read(listed[0])
    check(read.unread is False and bob.conversations()[0].unread is False, f"conversations_read: {read}")


def run(a, b):
    domain_b = urllib.parse.urlparse(b).netloc
    alice, _ = sign_up(a, "alice", app="FedNode apps B")
    bob, bob_account = sign_up(a, "bob", app="FedNode apps B")
    _, carol_account = sign_up(a, "carol", app="FedNode apps B")
    dana, _ = sign_up(b, "dana", app="FedNode apps B")
    alice.account_follow(bob_account)
    filters(alice, bob)
    lists(alice, bob, bob_account, carol_account)
    hashtags(alice, dana, domain_b)
    conversations(alice, bob)


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
