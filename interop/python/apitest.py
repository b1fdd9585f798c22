"""What the Mastodon.py acceptance scripts share: the scopes and redirect URI an app registers,
and the small step/check/wait helpers that make a failing run say where it failed."""
import time

from mastodon import Mastodon

SCOPES = ["read", "write", "follow", "push"]
OOB = "urn:ietf:wg:oauth:2.0:oob"


def step(name):
    print(f"STEP {name}", flush=True)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def eventually(what, condition, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.25)
    raise AssertionError(f"never happened: {what}")


def expect_error(call, *fragments):
    try:
        call()
    except Exception as error:  # Mastodon.py raises MastodonNotFoundError, MastodonAPIError...
        text = str(error).lower()
        check(any(f in text for f in fragments), f"unexpected error: {error}")
        return
    raise AssertionError(f"expected an error containing one of {fragments}")


def sign_up(base, name, app="FedNode"):
    """Registers an app and signs `name` up through the API, as an app's sign-up screen does;
    answers the client and the new account."""
    client_id, client_secret = Mastodon.create_app(f"{app} {name}", scopes=SCOPES, redirect_uris=OOB, api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=base)
    token = api.create_account(name, f"{name} secret password", f"{name}@example.test", agreement=True, locale="en",
                               scopes=SCOPES)
    check(token, f"sign-up of {name} gave no token")
    return api, api.account_verify_credentials()
