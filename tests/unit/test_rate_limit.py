"""The per-token bucket behind 429s, and which bucket a request takes from."""

from types import SimpleNamespace
from typing import Any

from server.auth.tokens import hash_secret
from server.auth.limits import TokenBuckets, bucket_of


def test_bucket_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    buckets = TokenBuckets(rate=2.0, burst=3, clock=lambda: now[0])
    assert [buckets.wait(b"t") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.wait(b"t") == 0.5  # empty: the next request is half a second away at 2/s
    assert buckets.wait(b"other") == 0.0  # every token has its own bucket
    now[0] = 0.5
    assert buckets.wait(b"t") == 0.0
    now[0] = 100.0
    assert [buckets.wait(b"t") for _ in range(4)][-1] > 0  # refills to the burst, never beyond


class _Tokens:
    """What the rate limit asks of the token store: is this token known valid here."""

    def __init__(self, *secrets: str) -> None:
        self.valid = {hash_secret(s) for s in secrets}

    def knows(self, secret_hash: bytes) -> bool:
        return secret_hash in self.valid


def _scope(path: str = "/encounters/e", authorization: str | None = None, query: bytes = b"",
           client: str = "192.0.2.1", kind: str = "http", operator_key: str | None = None,
           tokens: _Tokens | None = None) -> dict[str, Any]:
    state = SimpleNamespace(tokens=tokens or _Tokens("frc_valid"), settings=SimpleNamespace(operator_key=operator_key))
    headers = [(b"host", b"x")] + ([(b"authorization", authorization.encode())] if authorization is not None else [])
    return {"type": kind, "path": path, "headers": headers, "query_string": query, "client": (client, 5000),
            "app": SimpleNamespace(state=state)}


def test_a_token_is_one_bucket_however_the_header_is_spelt() -> None:
    """Issue 16: "The rate limit counts per token identity (however the header is spelt)"."""
    spellings = ["Bearer frc_valid", "bearer frc_valid", "BEARER    frc_valid", "Bearer frc_valid   ",
                 "bEaReR \t frc_valid"]
    keys = {bucket_of(_scope(authorization=s)) for s in spellings}
    assert keys == {hash_secret("frc_valid")}
    # from another address, on another path, over a WebSocket, or as ?token= on a live stream: the same
    assert bucket_of(_scope("/encounters/f/events", "bearer frc_valid", client="198.51.100.7")) in keys
    assert bucket_of(_scope("/encounters/e/live", None, b"after=3&token=frc_valid", kind="websocket")) in keys


def test_without_a_valid_token_a_request_counts_against_its_address() -> None:
    """Issue 16: "... and per client address for requests without a valid token": no token, a
    malformed header, random tokens (each would cost a database look-up) share one bucket."""
    address = b"addr:192.0.2.1"
    for authorization in [None, "", "Basic abc", "Bearer", "Bearer   ", "Bearer frc_random1", "Bearer frc_random2",
                          "bearer frc_valid_not"]:
        assert bucket_of(_scope(authorization=authorization)) == address, authorization
    assert bucket_of(_scope(query=b"token=frc_valid")) == address  # ?token= is read on live streams only
    assert bucket_of(_scope("/encounters/e/live", query=b"token=frc_random")) == address
    assert bucket_of(_scope(authorization="Bearer frc_random", client="198.51.100.7")) == b"addr:198.51.100.7"
    # the operator key is an identity of its own
    assert bucket_of(_scope("/encounters", "Bearer opkey", operator_key="opkey")) == b"operator"
    assert bucket_of(_scope("/encounters", "Bearer opkey")) == address


def test_a_flood_of_random_tokens_is_limited_and_a_known_token_is_not() -> None:
    now = [0.0]
    buckets = TokenBuckets(rate=1.0, burst=3, clock=lambda: now[0])
    waits = [buckets.wait(bucket_of(_scope(authorization=f"Bearer frc_{n}"))) for n in range(5)]
    assert waits[:3] == [0.0, 0.0, 0.0] and all(w > 0 for w in waits[3:])
    assert buckets.wait(bucket_of(_scope(authorization="Bearer frc_valid"))) == 0.0
