#!/usr/bin/env python3
"""Web Push through Mastodon.py against a running FedNode node and a push service on loopback
(push_service.py): the VAPID key in the instance and app entities, subscribing with
push_subscription_generate_keys / push_subscription_set, reading and changing the subscription,
a favourite and a follow pushed (VAPID JWT verified with the node's key, payload decrypted with
the subscription's private key), a 410 from the push service removing the subscription, and
deleting it. Exits non-zero on failure; prints ALL OK at the end.
"""
import argparse
import sys

from mastodon import Mastodon
from apitest import OOB, SCOPES, check, eventually, step

from push_service import PushService, b64url_decode, decrypt, verify_vapid


def sign_up(base, name):
    client_id, client_secret = Mastodon.create_app(f"FedNode push {name}", scopes=SCOPES, redirect_uris=OOB, api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
    token = api.create_account(name, f"{name} secret password", f"{name}@example.test", agreement=True, locale="en", scopes=SCOPES)
    check(token, f"sign-up of {name} gave no token")
    return api


def is_gone(api):
    try:
        api.push_subscription()
    except Exception as error:  # MastodonNotFoundError
        return "not found" in str(error).lower() or "404" in str(error)
    return False


def check_push(push, server_key, origin, token):
    verify_vapid(push["headers"], server_key, origin)
    check(int(push["headers"].get("ttl", "0")) > 0, f"TTL header: {push['headers']}")
    check(push["headers"].get("urgency") in ("very-low", "low", "normal", "high"), f"Urgency header: {push['headers']}")
    return push


def run(base):
    service = PushService().start()
    alice, bob = sign_up(base, "alice"), sign_up(base, "bob")

    step("the VAPID key is advertised")
    server_key = alice.instance_v2().configuration.vapid.public_key
    check(len(b64url_decode(server_key)) == 65, f"configuration.vapid.public_key: {server_key!r}")
    check(alice.app_verify_credentials().vapid_key == server_key, "Application.vapid_key differs from the instance's")

    step("subscribe")
    private, public = alice.push_subscription_generate_keys()
    endpoint = service.origin + "/alice"
    sub = alice.push_subscription_set(endpoint, public, follow_events=True, favourite_events=True, mention_events=True,
                                      reblog_events=False, policy="all")
    check(sub.endpoint == endpoint and sub.server_key == server_key and sub.policy == "all", f"subscription: {sub}")
    check(sub.alerts.follow is True and sub.alerts.favourite is True and sub.alerts.reblog is False, f"alerts: {sub.alerts}")

    step("read and change")
    check(alice.push_subscription().id == sub.id, "push_subscription() is another subscription")
    changed = alice.push_subscription_update(follow_events=True, favourite_events=True, mention_events=False, policy="all")
    check(changed.alerts.mention is False and changed.alerts.follow is True, f"updated alerts: {changed.alerts}")

    step("a favourite and a follow are pushed")
    post = alice.status_post("Harbour at dusk")
    bob.status_favourite(post.id)
    bob.account_follow(alice.me().id)
    pushes = eventually("two pushes", lambda: len(service.received("/alice")) >= 2 and service.received("/alice"))
    token = alice.access_token
    payloads = {}
    for push in pushes:
        check_push(push, server_key, service.origin, token)
        payload = decrypt(push, private["privkey"], private["auth"])
        payloads[payload["notification_type"]] = payload
    check(sorted(payloads) == ["favourite", "follow"], f"pushed types: {sorted(payloads)}")
    ids = {str(n.id): n.type for n in alice.notifications()}
    for kind, payload in payloads.items():
        check(isinstance(payload["notification_id"], int) and ids.get(str(payload["notification_id"])) == kind,
              f"{kind} notification_id {payload['notification_id']} not in {ids}")
        check(payload["access_token"] == token and payload["preferred_locale"] == "en", f"{kind} payload: {payload}")
        check(payload["icon"].startswith("http"), f"{kind} icon: {payload['icon']}")
    check(payloads["favourite"]["title"] == "bob favorited your post", f"title: {payloads['favourite']['title']}")
    check(payloads["favourite"]["body"] == "Harbour at dusk", f"body: {payloads['favourite']['body']}")
    check(payloads["follow"]["title"] == "bob is now following you", f"title: {payloads['follow']['title']}")

    step("a 410 from the push service removes the subscription")
    alice.push_subscription_set(service.origin + "/gone/alice", public, favourite_events=True)
    second = alice.status_post("Second light")
    bob.status_favourite(second.id)
    eventually("the push to the gone endpoint", lambda: service.received("/gone/"))
    eventually("the subscription removed", lambda: is_gone(alice))
    check(len(service.received("/alice")) == 2, "a push went to the replaced endpoint")

    step("delete")
    alice.push_subscription_set(endpoint, public, follow_events=True)
    alice.push_subscription_delete()
    check(is_gone(alice), "the subscription is still there after push_subscription_delete")
    service.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", required=True)
    args = parser.parse_args()
    try:
        run(args.node)
    except Exception as error:
        print(f"FAILED: {type(error).__name__}: {error}", flush=True)
        sys.exit(1)
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
