"""Reads a FedNode account archive the way a person's tools would: downloads
GET /api/v1/exports/archive with the account's token, opens it with Python's zipfile (which
checks every entry's CRC-32), and checks Mastodon's archive layout: actor.json, outbox.json
with one Create per post, likes.json, the CSV lists, and the original photo files, byte for byte
the ones the node serves."""
import argparse
import csv
import io
import json
import sys
import zipfile

import requests

from apitest import check, step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--posts", type=int, required=True)
    parser.add_argument("--photos", type=int, required=True)
    parser.add_argument("--following", required=True, help="the one account address followed")
    parser.add_argument("--liked", required=True, help="the id of the one post liked")
    args = parser.parse_args()

    step("download")
    response = requests.get(f"{args.base}/api/v1/exports/archive", headers={"Authorization": f"Bearer {args.token}"}, timeout=60)
    check(response.status_code == 200, f"archive answered {response.status_code}: {response.text[:200]}")
    check(response.headers.get("Content-Type") == "application/zip", f"content type {response.headers.get('Content-Type')}")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    check(archive.testzip() is None, "an entry's CRC-32 does not match")
    names = archive.namelist()
    for name in ["actor.json", "outbox.json", "likes.json", "following_accounts.csv", "followers.csv",
                 "blocked_accounts.csv", "muted_accounts.csv", "bookmarks.csv"]:
        check(name in names, f"{name} missing from {names}")

    step("actor and outbox")
    actor = json.loads(archive.read("actor.json"))
    check(actor.get("type") == "Person" and actor.get("id", "").startswith(args.base), f"actor {actor.get('id')}")
    outbox = json.loads(archive.read("outbox.json"))
    check(outbox.get("type") == "OrderedCollection", "outbox is not an OrderedCollection")
    items = outbox.get("orderedItems", [])
    check(outbox.get("totalItems") == args.posts == len(items), f"outbox has {len(items)} items, totalItems {outbox.get('totalItems')}")
    check(all(item["type"] == "Create" and item["actor"] == actor["id"] and item["object"]["type"] == "Note" for item in items),
          "every item is the Create of a Note by the actor")
    published = [item["published"] for item in items]
    check(published == sorted(published), "oldest post first")

    step("likes and CSV lists")
    likes = json.loads(archive.read("likes.json"))
    check(likes.get("orderedItems") == [args.liked], f"likes.json lists {likes.get('orderedItems')}")
    following = list(csv.reader(io.StringIO(archive.read("following_accounts.csv").decode("utf-8"))))
    check(following == [["Account address", "Show boosts", "Notify on new posts", "Languages"], [args.following, "true", "false", ""]],
          f"following_accounts.csv is {following}")

    step("photos")
    photos = [name for name in names if name.startswith("media_attachments/files/")]
    check(len(photos) == args.photos, f"{len(photos)} photo files, expected {args.photos}")
    urls = [attachment["url"] for item in items for attachment in item["object"].get("attachment", [])]
    check(len(urls) == args.photos, f"{len(urls)} attachments in the outbox")
    for name in photos:
        path = name[len("media_attachments/files/"):]
        served = [url for url in urls if url.endswith("/" + path)]
        check(len(served) == 1, f"no attachment URL for {path}")
        original = requests.get(served[0], timeout=30)
        check(original.status_code == 200 and original.content == archive.read(name), f"{name} differs from {served[0]}")
    print("ALL OK", flush=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}", flush=True)
        sys.exit(1)
