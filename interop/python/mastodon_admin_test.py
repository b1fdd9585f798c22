#!/usr/bin/env python3
"""Drives FedNode's moderation API with Mastodon.py's admin calls, as an admin client does:
a user on node A reports an account of node B (forwarded), A's admin lists, assigns and resolves
the report, moderates an account (silence, unsilence, suspend, unsuspend), and blocks node B's
domain (suspend), checks the public list, and lifts the block. Exits non-zero on failure.

    mastodon_admin_test.py --node-a URL --node-b URL --admin-email E --admin-password P
"""
import argparse
import sys
import traceback
import urllib.parse

from mastodon import Mastodon
from apitest import OOB, check, expect_error, step
from mastodon_client_test import sign_up


ADMIN_SCOPES = ["read", "write", "follow", "admin:read", "admin:write"]


def log_in_admin(base, email, password):
    client_id, client_secret = Mastodon.create_app("FedNode admin client", scopes=ADMIN_SCOPES, redirect_uris=OOB,
                                                   api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
    api.log_in(email, password, scopes=ADMIN_SCOPES, allow_http=True)
    return api


def run(a, b, admin_email, admin_password):
    domain_b = urllib.parse.urlparse(b).netloc

    step("sign up a reporter on A and a spammer on B, who posts")
    alice, _, _ = sign_up(a, "alice")
    spammer, _, _ = sign_up(b, "spammer")
    spam = spammer.status_post("cheap pills, click here #deals")

    step("alice finds the spammer and his post from A, and reports both, forwarded")
    found = alice.search_v2(spam.uri, resolve=True)
    check(found.statuses, f"the post was not found by URL: {found}")
    remote_post = found.statuses[0]
    remote_spammer = remote_post.account
    check(remote_spammer.acct == f"spammer@{domain_b}", f"acct: {remote_spammer.acct}")
    report = alice.report(remote_spammer.id, status_ids=[remote_post.id], comment="spam in my timeline", forward=True,
                          category="spam")
    check(report.category == "spam" and report.forwarded and str(report.target_account.id) == str(remote_spammer.id),
          f"report entity: {report}")

    step("a user token cannot use the admin API")
    expect_error(lambda: alice.admin_reports(), "not allowed", "403", "outside the authorized scopes")

    step("the admin lists, assigns, resolves and reopens the report")
    admin = log_in_admin(a, admin_email, admin_password)
    reports = admin.admin_reports()
    check(len(reports) == 1, f"open reports: {reports}")
    listed = reports[0]
    check(listed.account.username == "alice" and listed.target_account.account.acct == f"spammer@{domain_b}",
          f"report accounts: {listed}")
    check([s.id for s in listed.statuses] == [remote_post.id] and listed.comment == "spam in my timeline", f"report: {listed}")
    assigned = admin.admin_report_assign(listed.id)
    check(assigned.assigned_account is not None and assigned.assigned_account.username == "ada", f"assigned: {assigned}")
    resolved = admin.admin_report_resolve(listed.id)
    check(resolved.action_taken, f"resolved: {resolved}")
    check(len(admin.admin_reports()) == 0, "no open report left")
    check(len(admin.admin_reports(resolved=True)) == 1, "the resolved report is listed as resolved")

    step("the admin lists accounts and moderates alice")
    local = admin.admin_accounts_v2(origin="local")
    check({x.username for x in local} >= {"ada", "alice"}, f"local accounts: {[x.username for x in local]}")
    remote = admin.admin_accounts_v2(origin="remote", by_domain=domain_b)
    check([x.username for x in remote] == ["spammer"], f"remote accounts: {[x.username for x in remote]}")
    staff = admin.admin_accounts_v2(permissions="staff")
    check([x.username for x in staff] == ["ada"] and staff[0].role.name == "Admin", f"staff: {staff}")
    alice_id = alice.me().id
    admin.admin_account_moderate(alice_id, action="silence")
    check(admin.admin_account(alice_id).silenced, "alice is silenced")
    check([x.username for x in admin.admin_accounts_v2(status="silenced")] == ["alice"], "silenced filter")
    check(not admin.admin_account_unsilence(alice_id).silenced, "alice is unsilenced")
    admin.admin_account_moderate(alice_id, action="suspend")
    expect_error(lambda: alice.account_verify_credentials(), "disabled", "403")
    check(not admin.admin_account_unsuspend(alice_id).suspended, "alice is unsuspended")
    check(alice.account_verify_credentials().username == "alice", "alice can use her token again")

    step("the admin suspends node B's domain; its content leaves A; then lifts the block")
    block = admin.admin_create_domain_block(domain_b, severity="suspend", public_comment="spam source", obfuscate=False)
    check(block.domain == domain_b and block.severity == "suspend" and block.public_comment == "spam source", f"block: {block}")
    check([x.domain for x in admin.admin_domain_blocks()] == [domain_b], "admin list")
    public = alice.instance_domain_blocks()
    check([(x.domain, x.severity, x.comment) for x in public] == [(domain_b, "suspend", "spam source")], f"public list: {public}")
    expect_error(lambda: alice.status(remote_post.id), "not found", "404")
    expect_error(lambda: admin.admin_create_domain_block(domain_b, severity="silence"), "already", "422")
    changed = admin.admin_update_domain_block(block.id, severity="silence")
    check(changed.severity == "silence", f"updated block: {changed}")
    admin.admin_delete_domain_block(block.id)
    check(len(admin.admin_domain_blocks()) == 0, "the block is lifted")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node-a", required=True)
    parser.add_argument("--node-b", required=True)
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    args = parser.parse_args()
    try:
        run(args.node_a, args.node_b, args.admin_email, args.admin_password)
    except Exception as error:
        traceback.print_exc()
        print(f"FAILED: {type(error).__name__}: {error}", flush=True)
        sys.exit(1)
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
