"""``fracas export``, ``fracas verify`` and ``fracas import`` as a user runs them (issue 7).

"`fracas export ID` writes the encounter as NDJSON (events plus what is needed to verify
them); `fracas verify FILE` checks that file offline, with no server and no database, and
`fracas import FILE` loads it into another server where it replays to the same state."
"A test tampers with an exported file (change one face, drop one event, reorder two) and
`fracas verify` names each."

The fight is real: ``fracas demo`` plays it with seeded dice against a ``fracas serve``
process, and the GM ends it (the seed is revealed).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest

from projections.chain import encode_sorted, link
from projections.export_file import parse, render
from tests.conftest import TEMPLATE, _admin, app_client, with_database
from tests.e2e.test_cli import run, serving
from tests.integration.fight import command, open_encounter
from tests.integration.seeded import second_database_url, seed_of  # noqa: F401

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@dataclass(frozen=True)
class Exported:
    enc: str
    dsn: str
    file: Path
    spectator_state: dict[str, Any]  # what a spectator was served on the first server


@pytest.fixture(scope="module")
async def exported(pg_admin_dsn: str, template_dsn: str, tmp_path_factory: pytest.TempPathFactory
                   ) -> AsyncIterator[Exported]:
    """A fight played by ``fracas demo`` (seeded dice, ended), exported with ``fracas export``."""
    name = f"xfer_{uuid.uuid4().hex[:12]}"
    await _admin(pg_admin_dsn, f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    dsn = with_database(pg_admin_dsn, name)
    env = {**os.environ, "DATABASE_URL": dsn}
    try:
        with serving(env) as (base, _):
            done = run("demo", "--url", base, "--rounds", "2", env=env)
            assert done.returncode == 0, done.stdout + done.stderr
            enc = re.search(rf"Encounter ({UUID}): \d+ events", done.stdout)
            spectator = re.search(r"Authorization: Bearer (\S+)'", done.stdout)
            assert enc and spectator, done.stdout
            seen = httpx.get(f"{base}/encounters/{enc.group(1)}",
                             headers={"Authorization": f"Bearer {spectator.group(1)}"}).json()
        file = tmp_path_factory.mktemp("export") / "fight.ndjson"
        out = run("export", enc.group(1), "--output", str(file), env=env)
        assert out.returncode == 0, out.stderr
        assert f"exported encounter {enc.group(1)}" in out.stderr and "warning" not in out.stderr
        yield Exported(enc=enc.group(1), dsn=dsn, file=file, spectator_state=seen)
    finally:
        await _admin(pg_admin_dsn, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def offline() -> dict[str, str]:
    """No database anywhere: no DATABASE_URL, and an embedded PostgreSQL folder that does not exist."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["FRACAS_DATA_DIR"] = "/nonexistent/fracas-verify-needs-no-database"
    return env


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def first_seeded_die_line(lines: list[str]) -> tuple[int, dict[str, Any]]:
    """The first event line whose payload holds a seeded die (past initiative: an attack's)."""
    for i, line in enumerate(lines[1:], 1):
        event = json.loads(line)
        if event["type"] != "InitiativeRolled" and '"source":"seeded"' in json.dumps(event["data"], separators=(",", ":")):
            return i, event
    raise AssertionError("no seeded die in the fight")


def change_face(value: Any) -> tuple[int, int] | None:
    """Change the first seeded die found; returns (old face, new face)."""
    if isinstance(value, dict):
        if value.get("source") == "seeded" and "face" in value:
            old = value["face"]
            value["face"] = old % value["sides"] + 1
            return old, value["face"]
        items = list(value.values())
    elif isinstance(value, list):
        items = value
    else:
        return None
    for v in items:
        found = change_face(v)
        if found:
            return found
    return None


# ------------------------------------------------------------------------------- verify


def test_an_untouched_export_verifies_offline(exported: Exported) -> None:
    lines = lines_of(exported.file)
    header = json.loads(lines[0])
    assert (header["format"], header["format_version"], header["encounter_id"]) == ("fracas-encounter", 1, exported.enc)
    assert header["ruleset"] == "places-of-power" and header["seed_revealed"] is True and header["seed"]
    assert header["seed_commitment"].startswith("sha256:") and header["version"] == len(lines) - 1
    assert json.loads(lines[-1])["hash"] == header["head_hash"]

    done = run("verify", str(exported.file), env=offline())
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"OK: encounter {exported.enc}: {len(lines) - 1} events, hash chain intact" in out
    assert "Seed revealed; it matches the commitment" in out
    seeded = re.search(r"Dice: (\d+) seeded \((\d+) re-derived and equal\)", out)
    assert seeded and int(seeded.group(1)) == int(seeded.group(2)) > 10, out
    assert "Replays to version" in out and "ended" in out


@pytest.mark.parametrize("how", ["face", "drop", "swap"])
def test_verify_names_each_tampering(exported: Exported, tmp_path: Path, how: str) -> None:
    """"change one face, drop one event, reorder two": `fracas verify` exits non-zero and names
    which version and what."""
    lines = lines_of(exported.file)
    if how == "face":
        i, event = first_seeded_die_line(lines)
        old, new = change_face(event["data"]) or (0, 0)
        lines[i] = json.dumps(event)
        version = event["version"]
        expected = [f"FAILED: encounter {exported.enc}: version {version}: hash_mismatch",
                    f"version {version}: die_mismatch", f"shows {new}; the seed gives {old}"]
    elif how == "drop":
        version = 9
        del lines[version]
        expected = [f"FAILED: encounter {exported.enc}: version {version}: version_gap", f"Version {version} is missing"]
    else:
        version = 12
        lines[version], lines[version + 1] = lines[version + 1], lines[version]
        expected = [f"FAILED: encounter {exported.enc}: version {version}: version_out_of_order",
                    f"Version {version} comes after version {version + 1}"]
    done = run("verify", str(write(tmp_path / f"{how}.ndjson", lines)), env=offline())
    assert done.returncode == 1, done.stdout + done.stderr
    for text in expected:
        assert text in done.stdout, (text, done.stdout)


def test_a_forger_who_rewrites_the_chain_is_named_by_the_seed(exported: Exported, tmp_path: Path) -> None:
    """Changing a face and computing every hash again (and the header's) gives a chain that
    holds; the revealed seed still names the die."""
    file = parse(exported.file.open("rb"))
    i, event = first_seeded_die_line(lines_of(exported.file))
    data = json.loads(file.rows[i - 1].data)
    old, new = change_face(data) or (0, 0)
    rows = list(file.rows)
    rows[i - 1] = replace(rows[i - 1], data=encode_sorted(data))
    rows = link(exported.enc, rows)
    header = msgspec.structs.replace(file.header, head_hash=rows[-1].hash.hex())
    forged = tmp_path / "forged.ndjson"
    forged.write_bytes(b"".join(render(header, rows)))
    done = run("verify", str(forged), env=offline())
    assert done.returncode == 1
    assert f"version {event['version']}: die_mismatch" in done.stdout.splitlines()[1], done.stdout
    assert f"shows {new}; the seed gives {old}" in done.stdout
    assert "hash_mismatch" not in done.stdout


def test_an_unreadable_file_is_named_with_its_line(tmp_path: Path) -> None:
    done = run("verify", str(write(tmp_path / "bad.ndjson", ["{not json"])), env=offline())
    assert done.returncode == 2 and "line 1" in done.stderr and "Traceback" not in done.stderr
    done = run("verify", str(tmp_path / "missing.ndjson"), env=offline())
    assert done.returncode == 2 and "Traceback" not in done.stderr


# ------------------------------------------------------------------------------- import


async def test_import_replays_to_the_same_state_on_another_server(
    exported: Exported, second_database_url: str, tmp_path: Path  # noqa: F811
) -> None:
    env = {**os.environ, "DATABASE_URL": second_database_url}
    done = run("import", str(exported.file), env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"imported encounter {exported.enc}" in done.stdout and "verified" in done.stdout
    token = re.search(r"GM token .*: (frc_\S+)", done.stdout)
    assert token, done.stdout
    gm = {"Authorization": f"Bearer {token.group(1)}"}

    # the same rows, the same hashes
    query = "SELECT version, event_id, type, schema_version, data, metadata, recorded_at, hash FROM events " \
            "WHERE encounter_id = $1::uuid ORDER BY version"
    a, b = await asyncpg.connect(exported.dsn), await asyncpg.connect(second_database_url)
    try:
        assert [tuple(r) for r in await a.fetch(query, exported.enc)] == [
            tuple(r) for r in await b.fetch(query, exported.enc)]
        assert await seed_of(a, exported.enc) == await seed_of(b, exported.enc)
    finally:
        await a.close()
        await b.close()

    async with app_client(exported.dsn) as first, app_client(second_database_url) as second:
        # GET state on the other database equals the original: as the GM (each server's own
        # GM token) and as a spectator
        first_gm = await _gm_of(first, exported)
        there = (await second.get(f"/encounters/{exported.enc}", headers=gm)).json()
        assert there == (await first.get(f"/encounters/{exported.enc}", headers=first_gm)).json()
        assert there["status"] == "ended"
        spectator = await second.post(f"/encounters/{exported.enc}/tokens", json={"role": "spectator"}, headers=gm)
        as_spectator = {"Authorization": f"Bearer {spectator.json()['token']}"}
        assert (await second.get(f"/encounters/{exported.enc}", headers=as_spectator)).json() == \
            exported.spectator_state
        audit = (await second.get(f"/encounters/{exported.enc}/audit", headers=gm)).json()
        assert audit["ok"] is True and audit["dice"]["verified"] is True

    again = run("import", str(exported.file), env=env)
    assert again.returncode == 1 and "refused (encounter_exists)" in again.stderr


async def _gm_of(client: httpx.AsyncClient, exported: Exported) -> dict[str, str]:
    """A GM token on the first server (the demo keeps its own): one minted in its database."""
    from server.auth.tokens import hash_secret, new_secret

    secret = new_secret()
    conn = await asyncpg.connect(exported.dsn)
    try:
        await conn.execute("INSERT INTO tokens (id, encounter_id, role, label, secret_hash) "
                           "VALUES ($1, $2::uuid, 'gm', 'test', $3) ON CONFLICT DO NOTHING",
                           uuid.uuid4(), exported.enc, hash_secret(secret))
    finally:
        await conn.close()
    return {"Authorization": f"Bearer {secret}"}


def test_import_refuses_a_file_that_does_not_verify(exported: Exported, second_database_url: str,  # noqa: F811
                                                     tmp_path: Path) -> None:
    lines = lines_of(exported.file)
    del lines[5]
    env = {**os.environ, "DATABASE_URL": second_database_url}
    done = run("import", str(write(tmp_path / "dropped.ndjson", lines)), env=env)
    assert done.returncode == 1
    assert "refused (verification_failed)" in done.stderr and "version 5: version_gap" in done.stderr


async def test_a_fight_in_progress_moves_only_with_its_seed(
    client: httpx.AsyncClient, database_url: str, second_database_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """Import needs the dice seed (the ``encounters`` table keeps it, the next rolls need it):
    a fight exported before its end carries none and is refused; exported with
    ``--include-seed`` it moves, and plays on where it arrived with the same dice."""
    enc = await open_encounter(client, "Unfinished", dice_policy="seeded")
    for name, controller in (("Mira", "player"), ("Bandit", "gm")):
        r = await client.post(f"/encounters/{enc}/combatants", json={"name": name, "side": name, "controller": controller,
                                                                        "sheet": {"initiative_modifier": 0}})
        assert r.status_code == 201, r.text
    await command(client, enc, {"type": "RollInitiative"})
    here, there = {**os.environ, "DATABASE_URL": database_url}, {**os.environ, "DATABASE_URL": second_database_url}

    for wrong, code in (("not-an-id", "invalid_encounter_id"), (str(uuid.uuid4()), "encounter_not_found")):
        refused = run("export", wrong, env=here)
        assert refused.returncode == 1 and f"({code})" in refused.stderr and "Traceback" not in refused.stderr

    plain = tmp_path / "plain.ndjson"
    assert run("export", enc, "-o", str(plain), env=here).returncode == 0
    assert json.loads(lines_of(plain)[0])["seed"] is None
    checked = run("verify", str(plain), env=offline())
    assert checked.returncode == 0 and "Seed not revealed yet" in checked.stdout
    refused = run("import", str(plain), env=there)
    assert refused.returncode == 1 and "refused (seed_not_revealed)" in refused.stderr

    secret = tmp_path / "secret.ndjson"
    assert run("export", enc, "--include-seed", "-o", str(secret), env=here).returncode == 0
    header = json.loads(lines_of(secret)[0])
    assert header["seed"] and header["seed_revealed"] is False
    checked = run("verify", str(secret), env=offline())
    assert checked.returncode == 0 and "secret dice seed" in checked.stdout
    moved = run("import", str(secret), env=there)
    assert moved.returncode == 0, moved.stderr
    gm = {"Authorization": "Bearer " + re.search(r"GM token .*: (frc_\S+)", moved.stdout).group(1)}  # type: ignore[union-attr]

    async with app_client(second_database_url) as b:
        b.headers.update(gm)
        rolled_there = await command(b, enc, {"type": "RollInitiative"})
        rolled_here = await command(client, enc, {"type": "RollInitiative"})
        assert rolled_there["events"][0]["data"] == rolled_here["events"][0]["data"]  # the same seed, the same dice
        await command(b, enc, {"type": "EndEncounter"})
        audit = (await b.get(f"/encounters/{enc}/audit")).json()
        assert audit["ok"] is True and audit["dice"]["verified"] is True and audit["dice"]["seeded"] == 4
