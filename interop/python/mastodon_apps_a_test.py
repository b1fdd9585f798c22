#!/usr/bin/env python3
"""Drives a running FedNode node with Mastodon.py 2.3.3's own methods for what apps build on
top of posting: bookmarks (status_bookmark, bookmarks, status_unbookmark), mutes
(account_mute with a duration, mutes, account_unmute), pinned posts (status_pin,
account_statuses(pinned=True), status_unpin), edit history and source (status_history,
status_source), read markers (markers_set, markers_get) and grouped notifications
(grouped_notifications, grouped_notification, grouped_notification_accounts,
unread_grouped_notifications_count, dismiss_grouped_notification) and what profiles show
(account_familiar_followers, account_note_set, accounts, statuses). Each step checks the entity
fields apps rely on. Prints ALL OK and exits 0 on success, non-zero on the first failure.
"""
import argparse
import datetime
import sys

from mastodon import Mastodon
from apitest import OOB, SCOPES, check, step, sign_up


def bookmarks(alice, bob):
    step("bookmarks")
    first = alice.status_post("Boats in the harbour", visibility="public")
    second = alice.status_post("Boats at sea", visibility="public")
    check(bob.status_bookmark(first).bookmarked is True, "bookmark did not answer bookmarked")
    check(bob.status_bookmark(second).bookmarked is True, "second bookmark")
    listed = bob.bookmarks()
    check([s.id for s in listed] == [second.id, first.id], f"bookmarks: {[s.id for s in listed]}")
    page = bob.bookmarks(limit=1)
    older = bob.fetch_next(page)
    check([s.id for s in page] == [second.id] and older and [s.id for s in older] == [first.id],
          "bookmarks do not page through Link")
    check(alice.status(first.id).bookmarked is False, "bookmarks must be private to their owner")
    check(bob.status_unbookmark(first).bookmarked is False, "unbookmark did not answer bookmarked false")
    check([s.id for s in bob.bookmarks()] == [second.id], "unbookmarked post still listed")


def mutes(alice, bob, alice_me, carol, carol_me):
    step("mutes")
    bob.account_follow(alice_me.id)
    bob.account_follow(carol_me.id)
    loud = alice.status_post("Loud post", visibility="public")
    calm = carol.status_post("Calm post", visibility="public")
    relationship = bob.account_mute(alice_me.id, duration=3600)
    check(relationship.muting is True and relationship.muting_notifications is True, f"mute: {relationship}")
    quiet = bob.account_mute(carol_me.id, notifications=False)
    check(quiet.muting is True and quiet.muting_notifications is False, f"mute without notifications: {quiet}")
    listed = bob.mutes()
    check([a.id for a in listed] == [carol_me.id, alice_me.id], f"mutes: {[a.id for a in listed]}")
    expiry = listed[1].mute_expires_at
    check(isinstance(expiry, datetime.datetime), f"mute_expires_at is not a time: {expiry!r}")
    left = (expiry - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    check(3000 < left <= 3600, f"mute ends in {left} seconds")
    home = [s.id for s in bob.timeline_home()]
    check(loud.id not in home and calm.id not in home, f"muted posts in the home timeline: {home}")
    bob.account_unmute(carol_me.id)
    check(bob.account_relationships(carol_me.id)[0].muting is False, "unmute did not lift the mute")
    check(calm.id in [s.id for s in bob.timeline_home()], "unmuted account still hidden")
    bob.account_unmute(alice_me.id)


def pins(alice, bob, alice_me):
    step("pinned posts")
    kept = alice.status_post("Pinned pier", visibility="public")
    alice.status_post("Another pier", visibility="public")
    check(alice.status_pin(kept).pinned is True, "pin did not answer pinned")
    shown = bob.account_statuses(alice_me.id, pinned=True)
    check([s.id for s in shown] == [kept.id], f"pinned statuses: {[s.id for s in shown]}")
    check(alice.status_unpin(kept).pinned is False, "unpin did not answer pinned false")
    check(list(bob.account_statuses(alice_me.id, pinned=True)) == [], "unpinned post still listed")


def history(alice, bob):
    step("edit history and source")
    post = alice.status_post("Low tide", visibility="public", spoiler_text="Water")
    source = alice.status_source(post)
    check(source.id == post.id and source.text == "Low tide" and source.spoiler_text == "Water", f"source: {source}")
    edited = alice.status_update(post.id, status="High tide", spoiler_text="Water")
    check(edited.edited_at is not None, "edited_at missing after an edit")
    versions = bob.status_history(post.id)
    check(len(versions) == 2, f"history has {len(versions)} versions")
    check("Low tide" in versions[0].content and "High tide" in versions[1].content, "versions out of order")
    check(all(v.account.id == post.account.id and v.poll is None and v.media_attachments == [] for v in versions),
          "StatusEdit fields")
    check(isinstance(versions[0].created_at, datetime.datetime), "created_at is not a time")


def markers(bob):
    step("markers")
    home = bob.timeline_home()
    check(home, "home timeline is empty")
    saved = bob.markers_set(["home", "notifications"], [home[0].id, "1"])
    check(saved.home.last_read_id == str(home[0].id) and saved.home.version == 1, f"markers_set: {saved}")
    again = bob.markers_set("home", home[-1].id)
    check(again.home.version == 2, f"version not raised: {again}")
    read = bob.markers_get(["home", "notifications"])
    check(read.home.last_read_id == str(home[-1].id) and read.notifications.last_read_id == "1", f"markers_get: {read}")
    check(isinstance(read.home.updated_at, datetime.datetime), "updated_at is not a time")


def grouped_notifications(alice, bob, bob_me, carol, carol_me):
    step("grouped notifications")
    post = alice.status_post("Grouped likes", visibility="public")
    bob.status_favourite(post)
    carol.status_favourite(post)
    results = alice.grouped_notifications(types=["favourite"])
    groups = results.notification_groups
    check(len(groups) == 1, f"grouped_notifications: {groups}")
    likes = groups[0]
    check(likes.type == "favourite" and likes.notifications_count == 2 and str(likes.status_id) == str(post.id),
          f"group: {likes}")
    check([str(i) for i in likes.sample_account_ids] == [str(carol_me.id), str(bob_me.id)], f"samples: {likes.sample_account_ids}")
    # Mastodon.py asks for partial_avatars: the newest sender whole, the other one partial.
    check([str(a.id) for a in results.accounts] == [str(carol_me.id)], f"accounts: {results.accounts}")
    check([str(a.id) for a in results.partial_accounts] == [str(bob_me.id)], f"partial_accounts: {results.partial_accounts}")
    check([str(s.id) for s in results.statuses] == [str(post.id)], "statuses")
    check(isinstance(likes.latest_page_notification_at, datetime.datetime), "latest_page_notification_at is not a time")
    one = alice.grouped_notification(likes.group_key)
    check([g.notifications_count for g in one.notification_groups] == [2], f"grouped_notification: {one}")
    accounts = alice.grouped_notification_accounts(likes.group_key)
    check([str(a.id) for a in accounts] == [str(carol_me.id), str(bob_me.id)], "grouped_notification_accounts")
    check(alice.unread_grouped_notifications_count(types=["favourite"]) == 1, "unread_grouped_notifications_count")
    alice.dismiss_grouped_notification(likes.group_key)
    check(alice.grouped_notifications(types=["favourite"]).notification_groups == [], "the dismissed group is still listed")


def profiles(alice, alice_me, bob, carol, carol_me):
    step("familiar followers, private notes, several accounts and posts at once")
    carol.account_follow(alice_me.id)  # bob already follows alice and carol
    familiar = bob.account_familiar_followers(alice_me.id)
    check([str(f.id) for f in familiar] == [str(alice_me.id)], f"account_familiar_followers: {familiar}")
    check([str(a.id) for a in familiar[0].accounts] == [str(carol_me.id)], f"familiar accounts: {familiar[0].accounts}")
    noted = bob.account_note_set(alice_me.id, "Met at the pier")
    check(noted.note == "Met at the pier", f"account_note_set: {noted}")
    check(bob.account_relationships(alice_me.id)[0].note == "Met at the pier", "the note is not in the relationship")
    check(carol.account_relationships(alice_me.id)[0].note == "", "a note must stay private to its writer")
    both = bob.accounts([carol_me.id, alice_me.id])
    check([str(a.id) for a in both] == [str(carol_me.id), str(alice_me.id)], f"accounts: {both}")
    first = alice.status_post("First of two", visibility="public")
    second = alice.status_post("Second of two", visibility="public")
    posts = bob.statuses([second.id, first.id])
    check([str(p.id) for p in posts] == [str(second.id), str(first.id)], f"statuses: {posts}")


def run(base):
    alice, alice_me = sign_up(base, "alice", app="FedNode apps-a")
    bob, bob_me = sign_up(base, "bob", app="FedNode apps-a")
    carol, carol_me = sign_up(base, "carol", app="FedNode apps-a")
    bookmarks(alice, bob)
    mutes(alice, bob, alice_me, carol, carol_me)
    pins(alice, bob, alice_me)
    history(alice, bob)
    markers(bob)
    grouped_notifications(alice, bob, bob_me, carol, carol_me)
    profiles(alice, alice_me, bob, carol, carol_me)
    print("ALL OK", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--node", required=True, help="base URL of a running node, e.g. http://127.0.0.1:8080")
    run(parser.parse_args().node)
    return 0


if __name__ == "__main__":
    sys.exit(main())
