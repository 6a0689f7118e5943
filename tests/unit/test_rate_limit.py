"""The per-token bucket behind 429s."""

from server.limits import TokenBuckets


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
