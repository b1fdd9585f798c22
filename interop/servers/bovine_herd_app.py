"""bovine-herd as a stand-alone ActivityPub server for the interop run.

Usage: python bovine_herd_app.py setup DB_PATH BASE_URL HANDLE   -> prints {"actor_id", "secret"}
       python bovine_herd_app.py serve DB_PATH PORT              -> serves on 127.0.0.1:PORT

bovine-herd is a library: it ships the Quart blueprints, the store and the inbox/outbox
processing, and leaves the process to the embedder. This file is that embedder, with
bovine's defaults (sqlite store, background processing) and nothing changed.
"""

import asyncio
import logging
import json
import sys

from quart import Quart

import offline_jsonld


async def setup(db_path: str, base_url: str, handle: str) -> None:
    from bovine.crypto import generate_ed25519_private_key, private_key_to_did_key
    from bovine_store import bovine_admin_store
    from tortoise import Tortoise

    db_url = f"sqlite://{db_path}"
    async with bovine_admin_store(db_url=db_url, domain=base_url) as store:
        await Tortoise.generate_schemas()
        bovine_name = await store.register(handle)
        secret = generate_ed25519_private_key()
        did_key = private_key_to_did_key(secret)
        await store.add_identity_string_to_actor(bovine_name, did_key.removeprefix("did:key:"), did_key)
        actor = await store.actor_for_name(bovine_name)
        actor_id = actor.actor_object.id
        await actor.session.close()
    print(json.dumps({"actor_id": actor_id, "secret": secret, "bovine_name": bovine_name}))


def serve(db_path: str, port: int) -> None:
    from bovine_herd import BovineHerd
    from hypercorn.asyncio import serve as hypercorn_serve
    from hypercorn.config import Config

    app = Quart(__name__)
    BovineHerd(app, db_url=f"sqlite://{db_path}")
    logging.basicConfig(level=logging.INFO)
    offline_jsonld.install()
    config = Config()
    # Loopback only: the interop run must stay on this machine.
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = "-"
    asyncio.run(hypercorn_serve(app, config))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "setup":
        asyncio.run(setup(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif command == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown command {command}")
