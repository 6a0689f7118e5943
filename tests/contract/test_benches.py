"""The benchmarks' building blocks run for every ruleset at a tiny size (issue 23: "every
ruleset in the benchmarks"), and what they print is sane. Nothing is timed here."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter

import msgspec
import pytest
from litestar.testing import TestClient

from bench import append, cpu, loadgen, memory, projections, replay, rulesets
from domain.core.ruleset import Ruleset
from server.app import create_app
from server.settings import Settings
from tests.contract.rulesets import OFFERED, each_ruleset


def test_every_registered_ruleset_has_a_bench_fight() -> None:
    assert [r.id for r in rulesets.with_demo()] == [r.id for r in OFFERED if "demo" in r.capabilities]
    assert rulesets.choices()[-2:] == ["all", "mixed"]
    assert [r.id for r in rulesets.chosen("mixed")] == [r.id for r in OFFERED]


@each_ruleset(OFFERED)
def test_a_long_fight_replays_to_its_live_state_and_keeps_fighting(ruleset: Ruleset) -> None:
    fight = rulesets.long_fight(ruleset, random.Random(3), events=600)
    assert len(fight.events) >= 600
    assert ruleset.replay(fight.events) == fight.state, "replay must equal the live state"
    kinds = Counter(type(c).__name__ for c in fight.commands[1:])
    assert len(kinds) >= 4, f"a degenerate fight: {kinds}"
    assert max(kinds.values()) < 0.6 * sum(kinds.values()), f"one command dominates: {kinds}"
    assert fight.state.round >= 3
    assert sum(len(g) for g in fight.groups) == len(fight.events)


@each_ruleset(OFFERED)
def test_bench_replay_prints_its_fold_for_a_ruleset(ruleset: Ruleset, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay.main(["--ruleset", ruleset.id, "--no-db", "--events", "300", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    n = int(re.search(rf"one {ruleset.id} fight: ([\d,]+) events", out).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert n >= 300
    rate = re.search(r"fold: Ruleset.replay of the decoded events\s+[\d.]+\s+[\d.]+\s+([\d,]+)", out)
    assert rate is not None and int(rate.group(1).replace(",", "")) > 0


def test_bench_replay_mixed_folds_every_ruleset_then_all_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert replay.main(["--ruleset", "mixed", "--no-db", "--events", "200", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    rows = {m.group(1): int(m.group(2).replace(",", "")) for m in re.finditer(r"^(\S[^\n]*?)\s{2,}([\d,]+)\s+[\d.]+\s+[\d,]+  300,000", out, re.MULTILINE)}
    assert set(rows) == {*(r.id for r in OFFERED), "mixed: one after another"}
    assert rows["mixed: one after another"] == sum(n for k, n in rows.items() if k in {r.id for r in OFFERED})


async def test_bench_projections_rebuilds_a_log_of_every_ruleset(database_url: str) -> None:
    events, encounters, kinds = await projections.write_log(database_url, 700, 1, "mixed")
    assert events == sum(kinds.values()) >= 700 and encounters >= len(OFFERED)
    for p in projections.all_projections():
        for read_ahead in (True, False):
            timed = await projections.rebuild_one(database_url, p.name, 250, read_ahead)
            assert timed.rebuilt.events == events and timed.cpu > 0, p.name


@each_ruleset(OFFERED)
def test_bench_memory_plays_a_demo_fight_of_each_ruleset(ruleset: Ruleset, database_url: str) -> None:
    with TestClient(create_app(database_url, Settings.from_env())) as http:
        played = memory.play_one("http://testserver", 1, ruleset.id, http=http)
        assert played.version > 5
        got = http.get(f"/encounters/{played.encounter_id}", headers={"Authorization": f"Bearer {played.gm_token}"})
        assert got.status_code == 200 and got.json()["version"] == played.version
        assert got.json()["ruleset"] == ruleset.id and got.json()["status"] == "active"




@each_ruleset(OFFERED)
def test_bench_append_has_a_lone_combatant_of_every_ruleset_that_goes_on_round_after_round(ruleset: Ruleset) -> None:
    """Issue 23: "fights of each of the four rulesets in `bench.append`": EndTurn where it ends a
    round at once, else the round the demo's script plays (Novus: declare, resolve, end the turn)."""
    found, refused = rulesets.solo(ruleset, random.Random(1))
    assert found is not None, refused
    assert msgspec.convert(found.sheet, ruleset.sheet_type) is not None
    assert found.cycle and found.cycle[-1] == {"type": "EndTurn", "combatant_id": "c0"}
    fight = rulesets._started(ruleset, random.Random(2), found.sheet, "party")
    for n in range(1, 6):  # taken again and again, a round each time
        for body in found.cycle:
            fight.send(msgspec.convert(body, ruleset.command_type))
        assert fight.state.round == n + 1


def test_bench_append_takes_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = append.solo_kinds("all")
    out = capsys.readouterr().out
    assert [k for k, _, _ in kinds] == [r.id for r in OFFERED]
    assert " left out: " not in out
    targets = append.fracas_targets([append.Opened(f"e{i}", f"x{i}", "t", cycle) for i, (_, _, cycle) in
                                     enumerate(kinds)])
    assert append.cycles(targets)  # Novus: three commands a round, sent in order
    assert all(b'"c0"' not in body for _, body, _ in targets)
    opened = [append.Opened(f"e{i}", f"x{i}", f"t{i}") for i in range(5)]
    # the ceiling's requests share one path: each its own, picked at random, never a cycle
    assert not append.cycles(append.bare_targets(opened)) and not append.cycles(append.fracas_targets(opened))


@pytest.mark.slow
def test_bench_append_loads_every_ruleset_over_http_without_a_refusal(capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each encounter's cycle is sent in order across runs (the warm-up, then each concurrency):
    every command is taken and stored, none refused. Issue 43: "a bare Litestar endpoint that
    sends the very append statement Fracas sends ... The new ratio gets its own column,
    `fracas/same`": the same-work ceiling appends every ruleset's events with no error, in no
    server's log either (the projections read the events it copies)."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert append.main(["--ruleset", "all", "--with-bare", "--concurrency", "1,4", "--seconds", "1",
                        "--warmup", "0.5", "--encounters", "8"]) == 0
    out = capsys.readouterr().out
    assert "novus, repeating NovusDeclare + NovusResolve + EndTurn" in out
    head, *levels = out.split("\n\n")[-1].strip().splitlines()
    assert "fracas/same" in head and len(levels) == 2
    assert all(float(line.split()[-2]) > 0 for line in levels)  # a ratio, so the ceiling answered
    stored = [(int(a), int(b)) for a, b in re.findall(r"commands appended in the database: (\d+) \(answers with 200: "
                                                      r"(\d+);", out)]
    assert len(stored) == 2 and all(a == b > 0 for a, b in stored)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (.ci/run installs it)")
def test_bench_cpu_counts_the_instructions_of_a_command_and_of_the_ceiling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--instructions``: callgrind counts the measured load only, for Fracas and the bare app.
    Its settings go to the counted processes only: this test runs it in pytest's process, whose
    environment every later e2e server is started with (a leaked 30 s settle was issue 40's stall)."""
    environment = dict(os.environ)
    with pytest.raises(SystemExit) as done:
        cpu.main(["--instructions", "--commands", "30", "--encounters", "2"])
    assert done.value.code == 0
    assert dict(os.environ) == environment, "the bench changed the environment of the process that ran it"
    out = capsys.readouterr().out
    fracas, bare = (int(re.search(rf"^{who}: ([\d,]+) instructions per command", out, re.MULTILINE)
                        .group(1).replace(",", "")) for who in ("fracas", "bare"))  # type: ignore[union-attr]
    # a command is more than the interpreter's start (tens of millions) and less than a fold of it
    assert 100_000 < bare < fracas < 5_000_000
    assert re.search(r"^fracas/bare: \d+\.\d\dx", out, re.MULTILINE)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind (.ci/run installs it)")
def test_bench_replay_counts_the_instructions_of_a_fold_and_they_do_not_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--instructions``: the fold alone is counted, the same count twice (what makes it worth having)."""
    counts = []
    for _ in range(2):
        assert replay.main(["--ruleset", "novus", "--events", "200", "--instructions"]) == 0
        m = re.search(r"^novus\s+([\d,]+) events\s+([\d,]+) instructions/event", capsys.readouterr().out,
                      re.MULTILINE)
        assert m is not None and int(m.group(1).replace(",", "")) >= 200
        counts.append(int(m.group(2).replace(",", "")))
    assert 1_000 < counts[0] < 1_000_000
    assert abs(counts[0] - counts[1]) <= 0.01 * counts[0]


async def _http_recorder() -> tuple[asyncio.Server, int, list[tuple[int, str, bytes]]]:
    """A server answering every request 200, recording (connection, path, body) as they come."""
    seen: list[tuple[int, str, bytes]] = []
    conns = 0

    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        nonlocal conns
        conns += 1
        me = conns
        try:
            while True:
                head = (await r.readuntil(b"\r\n\r\n")).decode("latin-1")
                length = int(next(line.split(":")[1] for line in head.split("\r\n")
                                  if line.lower().startswith("content-length")))
                seen.append((me, head.split(" ")[1], await r.readexactly(length)))
                w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
                await w.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            w.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1], seen


async def test_the_load_generator_picks_at_random_on_every_connection_unless_an_encounter_has_a_cycle() -> None:
    """The ceiling's targets share a path (each its own token): all connections load them. An
    encounter's cycle (its path and token more than once) is sent in order by one connection,
    and left at its start after the run."""
    server, port, seen = await _http_recorder()
    async with server:
        bare = [("/append", b"%d" % i, f"t{i}") for i in range(8)]
        await loadgen.run_load("127.0.0.1", port, bare, 4, 0.3)
        assert len({c for c, _, _ in seen}) == 4
        seen.clear()
        cycle = [(f"/e{e}", body, f"t{e}") for e in range(2) for body in (b"a", b"b", b"c")]
        report = await loadgen.run_load("127.0.0.1", port, cycle, 4, 0.3)
        by_path: dict[str, list[bytes]] = {}
        for c, path, body in seen:
            by_path.setdefault(path, []).append(body)
        assert len({c for c, _, _ in seen}) == 2  # one connection an encounter; the others idle
        for bodies in by_path.values():
            assert len(bodies) % 3 == 0 and bodies == [b"a", b"b", b"c"] * (len(bodies) // 3)
        assert report.requests + report.unmeasured == len(seen)


@pytest.mark.slow
def test_bench_tables_seats_follows_and_plays_its_tables(pg_admin_dsn: str, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43's bench at a tiny size: every table seated, its six screens following (five
    WebSockets and an SSE), commands drawn from the next moves taken, every screen at every version."""
    from bench import tables

    monkeypatch.setenv("DATABASE_URL", pg_admin_dsn)
    assert tables.main(["--tables", "4", "--seconds", "3", "--warmup", "1", "--clients", "1", "--pace", "1"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^\s+4\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s.*\s(\d+)\s+(\d+)$", out, re.M)
    assert row, out
    commands, p50, p99, connections, gaps, dropped = row.groups()
    assert int(commands) > 0 and 0 < float(p50) <= float(p99)
    assert (int(connections), int(gaps), int(dropped)) == (24, 0, 0)
    assert re.search(r"^tables held at p99 < 100 ms: \d+$", out, re.M)


@each_ruleset(OFFERED)
def test_a_bench_tables_screen_keeps_the_next_moves_its_stream_patches(ruleset: Ruleset) -> None:
    """bench.tables draws each command from the next moves the acting screen's stream delivered
    (``actions`` whole, then ``actions_patch``): patched in place, they equal each version's own."""
    from bench.tables import Screen, _Message
    from projections.actions import actions_for
    from projections.patch import json_patch, patch_in_place
    from tests.contract.autoplay import play, viewers

    states = play(ruleset, 1, steps=60).states
    for viewer in viewers(states[0])[:2]:
        docs = [msgspec.to_builtins(actions_for(ruleset, s, viewer)) for s in states]
        screen = Screen()
        screen.read([_Message(version=1, type="actions", actions=msgspec.Raw(msgspec.json.encode(docs[0])))])
        for version, (old, new) in enumerate(itertools.pairwise(docs), start=2):
            patch = msgspec.Raw(msgspec.json.encode(json_patch(old, new)))
            screen.read([_Message(version=version, type="actions_patch", base=version - 1, patch=patch)])
            assert screen.moves == new and screen.moves_version == version
        screen.read([_Message(version=99, type="actions_patch", base=7, patch=msgspec.Raw(b"[]"))])
        assert screen.moves is None, "a patch from moves the screen does not have drops them"
    old, new = {"a": 1, "b": {"c": [1, 2], "d/e": 3}, "f": None}, {"b": {"c": [3], "x": {"y": 1}}, "~": 2, "f": 0}
    assert patch_in_place(msgspec.json.decode(msgspec.json.encode(old)), json_patch(old, new)) == new


def test_a_soak_screen_counts_an_event_missed_or_got_twice() -> None:
    from bench.soak import Screen

    screen = Screen("t")
    for v in (1, 2, 3, 3, 5, 6):
        screen.event(v)
    assert (screen.last, screen.missing, screen.twice) == (6, 1, 1)


@pytest.mark.slow
def test_bench_soak_rides_out_a_killed_worker_a_postgres_restart_and_a_receiver_away() -> None:
    """Issue 43: "a server process is killed (kill -9) and started again; PostgreSQL restarts once;
    a webhook receiver goes away for a minute. At the end: every table's state equals its replay;
    every client got every version it may see; no acknowledged command is lost; every webhook has
    delivered everything. It prints those counts." Here for half a minute, three tables, the
    receiver away 4 s."""
    out = subprocess.run([sys.executable, "-m", "bench.soak", "--minutes", "0.5", "--tables", "3", "--clients", "1",
                          "--pace", "1", "--away", "4", "--drain", "60"], cwd=append.REPO, capture_output=True, text=True,
                         timeout=240, env={**os.environ, "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", "/tmp")})
    text = out.stdout
    assert out.returncode == 0, text + out.stderr[-3000:]
    assert re.search(r"kill -9 worker \d+; the supervisor started \[\d+\]", text), text
    assert "a worker killed 1x, PostgreSQL restarted 1x" in text
    acked = re.search(r"acknowledged commands lost: 0 of (\d+)", text)
    assert acked and int(acked.group(1)) > 0, text
    for line in ("tables whose state equals its replay: 3 of 3", "tables whose log audits clean: 3 of 3",
                 "screens with every version of their table, in order: 18 of 18 (events missing 0, twice 0)",
                 "webhooks that delivered every event: 3 of 3", "soak: every check holds"):
        assert line in text, text
