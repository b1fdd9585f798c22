#!/usr/bin/env python3
"""Drives FedNode's approval-mode registration and domain allows with Mastodon.py, as an app
and an admin client do: the instance says approval is required, sign-up without a reason is
refused, a pending account cannot use its token until the admin approves it
(`admin_account_approve`), a rejected one (`admin_account_reject`) is deleted, and the admin
manages the allow list (`admin_*domain_allow*`). Exits non-zero on failure.

    registration_approval_test.py --node URL --admin-email E --admin-password P
"""
import argparse
import sys
import traceback

from mastodon import Mastodon
from apitest import OOB, SCOPES, check, expect_error, step
from mastodon_admin_test import log_in_admin


def new_app(base, name):
    client_id, client_secret = Mastodon.create_app(f"FedNode sign-up {name}", scopes=SCOPES, redirect_uris=OOB,
                                                   api_base_url=base)
    return Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)


def sign_up(base, name, reason=None):
    api = new_app(base, name)
    token, error = api.create_account(name, f"{name} secret password", f"{name}@example.test", agreement=True,
                                      reason=reason, locale="en", scopes=SCOPES, return_detailed_error=True)
    return api, token, error


def check_instance(base):
    step("the instance documents say sign-ups need approval")
    anonymous = Mastodon(api_base_url=base)
    v1 = anonymous.instance_v1()
    check(v1.registrations is True and v1.approval_required is True, f"v1: {v1.registrations} {v1.approval_required}")
    v2 = anonymous.instance_v2()
    check(v2.registrations.enabled and v2.registrations.approval_required and v2.registrations.message,
          f"v2 registrations: {v2.registrations}")


def run(base, admin_email, admin_password):
    check_instance(base)

    step("sign-up without a reason is refused with a per-field error")
    _, token, error = sign_up(base, "newbie")
    check(token is None and "reason" in (error.details or {}), f"error: {error}")

    step("sign-up with a reason gives a token that waits for approval")
    newbie, token, error = sign_up(base, "newbie", reason="I photograph herons at dawn")
    check(token is not None, f"sign-up failed: {error}")
    expect_error(lambda: newbie.account_verify_credentials(), "pending approval")

    step("the admin sees the pending account with its reason and approves it")
    admin = log_in_admin(base, admin_email, admin_password)
    pending = admin.admin_accounts_v2(status="pending")
    check([x.username for x in pending] == ["newbie"], f"pending: {[x.username for x in pending]}")
    check(pending[0].invite_request == "I photograph herons at dawn" and pending[0].approved is False, f"entry: {pending[0]}")
    approved = admin.admin_account_approve(pending[0].id)
    check(approved.approved is True, f"approved: {approved}")
    check(newbie.account_verify_credentials().username == "newbie", "the approved account works")
    check(admin.admin_accounts_v2(status="pending") == [], "nobody is pending any more")

    step("a rejected sign-up is deleted")
    spammer, token, error = sign_up(base, "spammer", reason="cheap pills")
    check(token is not None, f"sign-up failed: {error}")
    waiting = admin.admin_accounts_v2(status="pending")
    rejected = admin.admin_account_reject(waiting[0].id)
    check(rejected.username == "spammer", f"rejected: {rejected}")
    check(admin.admin_accounts_v2(status="pending") == [], "the rejected account is gone")
    expect_error(lambda: spammer.account_verify_credentials(), "401", "invalid")
    expect_error(lambda: admin.admin_account_approve(approved.id), "403", "not pending")

    step("the admin manages the domain allow list")
    allow = admin.admin_create_domain_allow("friends.example")
    check(allow.domain == "friends.example", f"allow: {allow}")
    check([x.domain for x in admin.admin_domain_allows()] == ["friends.example"], "allow list")
    check(admin.admin_domain_allow(allow.id).domain == "friends.example", "one allow")
    admin.admin_delete_domain_allow(allow.id)
    check(admin.admin_domain_allows() == [], "the allow is lifted")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", required=True)
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    args = parser.parse_args()
    try:
        run(args.node, args.admin_email, args.admin_password)
    except Exception as error:
        traceback.print_exc()
        print(f"FAILED: {type(error).__name__}: {error}", flush=True)
        sys.exit(1)
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
