"""The fediverse-pasture test actor as a stand-alone ActivityPub server for the interop run.

Usage: python pasture_app.py STATE_DIR PORT

fediverse-pasture's `one_actor` command binds 0.0.0.0 and keeps its keys in ./data.toml; this
embedder mounts the same blueprints (WebFinger, actor, inbox that verifies HTTP signatures,
random images, static assets) on 127.0.0.1 only and keeps its state in STATE_DIR:

- actor.json: the actor's name and RSA key pair (created on first start; the driver signs
  what the actor sends with it);
- inbox.jsonl: every activity the inbox accepted, one JSON document a line;
- assets/NAME.jsonap: objects the actor publishes, served as application/activity+json.

The one behaviour added to the pasture's inbox: a Follow is answered at once with a signed
Accept (the pasture actor has no user who could approve it), which makes this the
auto-accepting server of the run.
"""

import asyncio
import logging
import json
import os
import sys
import uuid

import aiohttp
from quart import Quart

import offline_jsonld

from fediverse_pasture.data_provider import bovine_actor_for_actor_data
from fediverse_pasture.data_provider.generate import generate_key_pair
from fediverse_pasture.data_provider.models import ActorData
from fediverse_pasture.server import BlueprintForActors, assets_blueprint_for_directory
from fediverse_pasture.server.image_provider_blueprint import image_provider_blueprint


def load_actor(state_dir: str) -> ActorData:
    path = os.path.join(state_dir, "actor.json")
    if not os.path.exists(path):
        data = ActorData(
            actor_name="actor",
            user_part="pasture",
            key_pairs=[generate_key_pair("main")],
            requires_signed_post_for_inbox=True,
        )
        with open(path, "w") as fp:
            fp.write(data.model_dump_json())
    with open(path) as fp:
        return ActorData(**json.load(fp))


def build_app(state_dir: str, port: int) -> Quart:
    actor_data = load_actor(state_dir)
    actor_id = f"http://127.0.0.1:{port}/{actor_data.actor_name}"
    inbox_log = os.path.join(state_dir, "inbox.jsonl")
    assets = os.path.join(state_dir, "assets")
    os.makedirs(assets, exist_ok=True)

    async def accept_follow(follow: dict) -> None:
        bovine_actor, _ = bovine_actor_for_actor_data(actor_id, actor_data)
        async with aiohttp.ClientSession() as session:
            await bovine_actor.init(session=session)
            follower = follow["actor"]
            remote = await bovine_actor.get(follower)
            accept = {
                "@context": "https://www.w3.org/ns/activitystreams",
                "id": f"{actor_id}/accept/{uuid.uuid4()}",
                "type": "Accept",
                "actor": actor_id,
                "object": follow,
                "to": [follower],
            }
            await bovine_actor.post(remote["inbox"], accept)

    async def on_inbox(data: dict) -> None:
        with open(inbox_log, "a") as fp:
            fp.write(json.dumps(data) + "\n")
        if data.get("type") == "Follow" and data.get("object") == actor_id:
            asyncio.get_running_loop().create_task(accept_follow(data))

    app = Quart(__name__)
    app.register_blueprint(BlueprintForActors(actors=[actor_data], on_inbox=on_inbox).blueprint)
    app.register_blueprint(image_provider_blueprint, url_prefix="/images")
    app.register_blueprint(assets_blueprint_for_directory(assets))
    return app


if __name__ == "__main__":
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    state_dir, port = sys.argv[1], int(sys.argv[2])
    logging.basicConfig(level=logging.INFO)
    offline_jsonld.install()
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = "-"
    asyncio.run(serve(build_app(state_dir, port), config))
