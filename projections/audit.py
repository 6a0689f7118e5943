"""The audit of one encounter's log: pure, no I/O, so a server and ``fracas verify`` share it.

Given the encounter's stored rows (from the database or from an export file), in the order
they came, the audit checks:

1. The log's shape: versions 1, 2, 3 ... each once, in order, none missing (and, for a
   file, as many as its header says, ending on the head hash it names).
2. The hash chain: each event's hash is SHA-256 of the hash before it and its own
   canonical bytes (``projections/chain.py``). A changed byte anywhere names its version.
3. The events: each decodes under its schema version (through the upcasters), the first
   is ``EncounterOpened`` for this encounter, and they replay through the rules.
4. The dice seed, once revealed (``EncounterEnded``, or a file that carries it): it must
   hash to the commitment ``EncounterOpened`` published.
5. The dice: every die is within its faces; seeded dice carry roll numbers 0, 1, 2 ...
   in order (a skipped number is a die rolled off the record, a reused one a re-roll);
   with the seed, each seeded face is derived again and must equal the stored face. A
   retcon takes the roll numbers back with the story: sent again, a command rolls the
   same numbers, so the same faces.
   Reported dice (physical dice, a VTT's roller) can only be checked for range.

Every problem found is reported with the version it concerns and a stable ``code``;
``first`` is the earliest. The report is everything; what a player may see of it is
decided by the server (``server/http/audit.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
import msgspec

from domain.core.dice import DieRoll, commitment_digest, commitment_matches, seeded_face
from domain.core.encounter import EncounterEnded, EncounterOpened, EncounterState, Event, Retconned
from domain.core.ruleset import Ruleset
from projections.chain import GENESIS_HASH, StoredRow, next_hash

# Every problem the audit can report, with the plain explanation shown where details are not.
AUDIT_CODES: dict[str, str] = {
    "no_events": "There are no events.",
    "invalid_version": "A version is not a positive number.",
    "duplicate_version": "Two events carry the same version.",
    "version_out_of_order": "The events are not in the order of their versions.",
    "version_gap": "An event is missing: the versions skip one.",
    "missing_events": "The log ends before the last version it should have.",
    "head_mismatch": "The last event's hash is not the one expected.",
    "header_mismatch": "The file's header does not agree with its events.",
    "hash_mismatch": "The event's hash does not match its contents and the hash before it.",
    "undecodable_event": "The event's payload is not an event of the encounter's ruleset.",
    "not_opened_first": "The log does not start with EncounterOpened.",
    "encounter_mismatch": "The log opens another encounter.",
    "replay_failed": "The events do not replay through the rules.",
    "unknown_commitment": "The seed commitment uses a scheme these rules do not know.",
    "seed_mismatch": "The revealed dice seed does not match the commitment published when the encounter opened.",
    "die_out_of_range": "A die shows a face it does not have.",
    "die_index_missing": "A seeded die carries no roll number.",
    "die_index_reused": "A seeded roll number is used twice.",
    "die_index_gap": "A seeded roll number was skipped: a die was rolled off the record.",
    "die_mismatch": "A seeded die does not show the face its roll number gives with the revealed seed.",
}


class DieFinding(msgspec.Struct, kw_only=True):
    """The die a problem is about: its label (what it was rolled for), size and faces."""

    purpose: str
    sides: int
    index: int | None
    stored_face: int
    derived_face: int | None = None


class AuditProblem(msgspec.Struct, kw_only=True):
    """One failed check: the version it concerns (None: the whole log), a stable code, why."""

    version: int | None
    code: str
    detail: str
    die: DieFinding | None = None


class SeedReport(msgspec.Struct, kw_only=True):
    """``commitment``: what EncounterOpened published. ``revealed``: the seed is known (the
    fight ended, or a file carries it). ``matches``: it hashes to the commitment (None until revealed)."""

    commitment: str | None
    revealed: bool
    matches: bool | None = None


class DiceReport(msgspec.Struct, kw_only=True):
    """``seeded``/``reported``: how many dice of each source (shown to the GM only).
    ``rederived``: seeded dice derived again from the seed and found equal.
    ``verified``: every seeded die was derived again and found equal (False until the seed is revealed)."""

    seeded: int | None
    reported: int | None
    rederived: int | None
    verified: bool


class AuditReport(msgspec.Struct, kw_only=True):
    """The audit of an encounter's log. ``ok``: no check failed (the dice are fully verified
    only once ``dice.verified``). ``first``: the earliest problem; ``problems``: all of them."""

    encounter_id: str
    ok: bool
    events: int
    head_hash: str | None
    chain_ok: bool
    seed: SeedReport
    dice: DiceReport
    first: AuditProblem | None
    problems: list[AuditProblem]


@dataclass(frozen=True)
class Expected:
    """What a file's header says of the log it carries: its last version and hash, and the
    seed it carries (revealed, or the secret one of a fight moved between servers)."""

    version: int | None = None
    head_hash: bytes | None = None
    seed: bytes | None = None
    commitment: str | None = None


@dataclass
class Audit:
    """The report, the decoded events (by version), the state they replay to (None when
    they do not replay) and the dice seed, when known and true to its commitment."""

    report: AuditReport
    events: dict[int, Event] = field(default_factory=dict)
    state: EncounterState | None = None
    seed: bytes | None = None


_ORDER = {code: i for i, code in enumerate(AUDIT_CODES)}


def audit(encounter_id: str, ruleset: Ruleset, rows: Sequence[StoredRow], expected: Expected | None = None) -> Audit:
    """Check ``rows`` (in the order given) as the log of ``encounter_id``."""
    expected = expected or Expected()
    problems: list[AuditProblem] = []
    by_version = _shape(rows, expected, problems)
    _links(encounter_id, by_version, problems)
    events, state = _replay(encounter_id, ruleset, by_version, problems)
    seed_report, seed = _seed(events, expected.seed, problems)
    if expected.commitment is not None and seed_report.commitment not in (None, expected.commitment):
        problems.append(problem(1, "header_mismatch", f"The header names the seed commitment {expected.commitment}; "
                                                      f"EncounterOpened published {seed_report.commitment}."))
    dice = _dice(encounter_id, events, seed, problems)
    problems.sort(key=lambda p: (p.version if p.version is not None else 0, _ORDER[p.code]))
    last = max(by_version) if by_version else 0
    chain_codes = {"hash_mismatch", "version_gap", "version_out_of_order", "duplicate_version", "invalid_version",
                   "missing_events", "head_mismatch", "no_events"}
    report = AuditReport(
        encounter_id=encounter_id,
        ok=not problems,
        events=last,
        head_hash=by_version[last].hash.hex() if by_version else None,
        chain_ok=not any(p.code in chain_codes for p in problems),
        seed=seed_report,
        dice=dice,
        first=problems[0] if problems else None,
        problems=problems,
    )
    return Audit(report=report, events=events, state=state, seed=seed)


def problem(version: int | None, code: str, detail: str, die: DieFinding | None = None) -> AuditProblem:
    return AuditProblem(version=version, code=code, detail=detail, die=die)


# ------------------------------------------------------------------------ the log's shape


def _shape(rows: Sequence[StoredRow], expected: Expected, problems: list[AuditProblem]) -> dict[int, StoredRow]:
    """Versions once each, in order, none missing. Returns the rows by version (first of a duplicate)."""
    if not rows:
        problems.append(problem(None, "no_events", AUDIT_CODES["no_events"]))
        return {}
    counts = Counter(r.version for r in rows)
    for v in sorted(v for v, n in counts.items() if n > 1):
        problems.append(problem(v, "duplicate_version", f"Version {v} appears {counts[v]} times."))
    versions = list(dict.fromkeys(r.version for r in rows))
    for before, after in zip(versions, versions[1:]):
        if after < before:
            problems.append(problem(after, "version_out_of_order", f"Version {after} comes after version {before}."))
            break
    for v in sorted(v for v in versions if v < 1):
        problems.append(problem(v, "invalid_version", f"Version {v}: versions start at 1."))
    last = max(versions)
    present = sorted(v for v in set(versions) if v >= 1)
    for before, after in zip([0, *present], present):  # each run of missing versions, named once
        if after > before + 1:
            which = f"Version {before + 1} is" if after == before + 2 else f"Versions {before + 1} to {after - 1} are"
            problems.append(problem(before + 1, "version_gap", f"{which} missing (the log goes on to version {last})."))
    if expected.version is not None and last < expected.version:
        problems.append(problem(
            last + 1, "missing_events",
            f"The log ends at version {last}; it should go on to version {expected.version}."))
    by_version: dict[int, StoredRow] = {}
    for r in rows:
        by_version.setdefault(r.version, r)
    if expected.head_hash is not None and expected.version in by_version:
        head = by_version[expected.version].hash
        if head != expected.head_hash:
            problems.append(problem(
                expected.version, "head_mismatch",
                f"Version {expected.version} ends the chain on {head.hex()}, not on {expected.head_hash.hex()}."))
    return by_version


def _links(encounter_id: str, by_version: dict[int, StoredRow], problems: list[AuditProblem]) -> None:
    """Each hash follows from the stored hash before it; a link after a missing event is not checked."""
    for v in sorted(by_version):
        row = by_version[v]
        prev = GENESIS_HASH if v == 1 else by_version[v - 1].hash if v - 1 in by_version else None
        if prev is None:
            continue
        if next_hash(prev, encounter_id, row) != row.hash:
            after = "the chain's start" if v == 1 else f"version {v - 1}'s hash"
            problems.append(problem(
                v, "hash_mismatch", f"Version {v} ({row.type}): its hash does not follow from its contents and {after}."))


# ------------------------------------------------------------------------------ events


def _replay(
    encounter_id: str, ruleset: Ruleset, by_version: dict[int, StoredRow], problems: list[AuditProblem]
) -> tuple[dict[int, Event], EncounterState | None]:
    events: dict[int, Event] = {}
    for v in sorted(by_version):
        row = by_version[v]
        try:
            events[v] = ruleset.decode_event(row.type, row.schema_version, row.data)
        except Exception as exc:  # any payload the rules cannot read, whatever the reason
            problems.append(problem(v, "undecodable_event",
                                    f"Version {v} ({row.type}, schema {row.schema_version}) does not decode: {exc}."))
    if not events:
        return events, None
    first = events.get(1)
    if not isinstance(first, EncounterOpened):
        problems.append(problem(1, "not_opened_first", AUDIT_CODES["not_opened_first"]))
        return events, None
    if first.encounter_id != encounter_id or first.ruleset != ruleset.id:
        problems.append(problem(1, "encounter_mismatch", f"EncounterOpened opens encounter {first.encounter_id} "
                                                         f"of {first.ruleset}, not {encounter_id} of {ruleset.id}."))
    if len(events) != len(by_version) or sorted(events) != list(range(1, len(events) + 1)):
        return events, None  # a log with holes is not replayed: its problems are named already
    ordered = [events[v] for v in sorted(events)]
    try:
        return events, ruleset.replay(ordered)
    except Exception:  # a rule that refuses to fold an event, whatever the reason: find which
        v = _first_failing(ruleset, ordered)
        try:
            ruleset.replay(ordered[:v])
        except Exception as exc:
            problems.append(problem(v, "replay_failed", f"Version {v} ({type(ordered[v - 1]).__name__}) "
                                                        f"does not replay: {exc}."))
        return events, None


def _first_failing(ruleset: Ruleset, ordered: list[Event]) -> int:
    """The shortest history that does not replay (a fold that fails goes on failing)."""
    lo, hi = 1, len(ordered)  # replay(ordered[:hi]) fails
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            ruleset.replay(ordered[:mid])
            lo = mid + 1
        except Exception:
            hi = mid
    return hi


# --------------------------------------------------------------------------- the seed


def _seed(events: dict[int, Event], carried: bytes | None, problems: list[AuditProblem]) -> tuple[SeedReport, bytes | None]:
    """The seed to check the dice with: revealed in EncounterEnded, or carried by a file."""
    opened = events.get(1)
    commitment = opened.seed_commitment if isinstance(opened, EncounterOpened) else None
    seed, where = carried, 0
    for v, e in sorted(events.items()):
        if isinstance(e, EncounterEnded) and e.seed is not None:
            try:
                revealed = bytes.fromhex(e.seed)
            except ValueError:
                problems.append(problem(v, "seed_mismatch", f"Version {v} reveals a seed that is not hex."))
                continue
            if seed is not None and revealed != seed:
                problems.append(problem(v, "seed_mismatch", f"Version {v} reveals another seed than {_whose(where)}."))
                continue
            seed, where = revealed, v
    if seed is None or commitment is None:
        return SeedReport(commitment=commitment, revealed=seed is not None), None
    if commitment_digest(commitment) is None:
        problems.append(problem(1, "unknown_commitment", f"The commitment {commitment!r} names an unknown scheme."))
        return SeedReport(commitment=commitment, revealed=True), None
    if not commitment_matches(commitment, seed):
        problems.append(problem(
            where or None, "seed_mismatch",
            f"The seed {_whose(where)} does not hash to the commitment {commitment} published at version 1."))
        return SeedReport(commitment=commitment, revealed=True, matches=False), None
    return SeedReport(commitment=commitment, revealed=True, matches=True), seed


def _whose(version: int) -> str:
    return f"revealed at version {version}" if version else "the file carries"


# --------------------------------------------------------------------------- the dice


def _dice(encounter_id: str, events: dict[int, Event], seed: bytes | None, problems: list[AuditProblem]) -> DiceReport:
    """Each event's seeded dice carry the roll numbers that come next (``rolls_used`` of the
    state before it, going up by one), as ``decide`` rolls them; a retcon takes the count
    back to its target's, so a command sent again rolls the same numbers and faces."""
    seeded = reported = rederived = 0
    used, used_after = 0, {}
    bad = False
    for v, event in sorted(events.items()):
        if isinstance(event, Retconned):
            used = used_after.get(event.to_version, used)
        for die in event.dice_rolled():
            finding = _finding(die)
            if not 1 <= die.face <= die.sides:
                problems.append(problem(v, "die_out_of_range",
                                        f"Version {v}: a d{die.sides} shows {die.face} ({die.purpose}).", finding))
                bad = True
                continue
            if die.source == "reported":
                reported += 1
                continue
            seeded += 1
            if die.index is None:
                problems.append(problem(v, "die_index_missing", f"Version {v}: a seeded d{die.sides} ({die.purpose}) "
                                                                "carries no roll number.", finding))
                bad = True
                continue
            if die.index < used:
                problems.append(problem(v, "die_index_reused", f"Version {v}: roll number {die.index} was used "
                                        f"before ({die.purpose}); the next one is {used}.", finding))
                bad = True
            elif die.index > used:
                problems.append(problem(v, "die_index_gap", f"Version {v}: roll number {die.index} where {used} "
                                        f"comes next ({die.purpose}): {die.index - used} roll(s) off the record.",
                                        finding))
                bad = True
            used = max(used, die.index + 1)
            if seed is None:
                continue
            derived = seeded_face(seed, encounter_id, die.index, die.sides)
            if derived != die.face:
                problems.append(problem(
                    v, "die_mismatch",
                    f"Version {v}: roll {die.index}, a d{die.sides} for {die.purpose}, shows {die.face}; "
                    f"the seed gives {derived}.",
                    msgspec.structs.replace(finding, derived_face=derived)))
                bad = True
            else:
                rederived += 1
        used_after[v] = used
    verified = seed is not None and not bad and rederived == seeded
    return DiceReport(seeded=seeded, reported=reported, rederived=rederived, verified=verified)


def _finding(die: DieRoll) -> DieFinding:
    return DieFinding(purpose=die.purpose, sides=die.sides, index=die.index, stored_face=die.face)


def summary(report: AuditReport) -> list[str]:
    """The report in a few lines for people (``fracas verify``, ``fracas import``)."""
    lines = []
    if report.ok:
        lines.append(f"OK: encounter {report.encounter_id}: {report.events} events, hash chain intact "
                     f"(head {report.head_hash}).")
    else:
        first = report.first
        assert first is not None
        where = f"version {first.version}" if first.version is not None else "the log"
        lines.append(f"FAILED: encounter {report.encounter_id}: {where}: {first.code}: {first.detail}")
        lines += [f"  also {('version %d' % p.version) if p.version is not None else 'the log'}: {p.code}: {p.detail}"
                  for p in report.problems[1:]]
    seed, dice = report.seed, report.dice
    if not seed.revealed:
        lines.append(f"Seed not revealed yet (commitment {seed.commitment}): {dice.seeded} seeded roll(s) "
                     "can be re-derived once the encounter ends.")
    elif seed.matches:
        lines.append(f"Seed revealed; it matches the commitment {seed.commitment}.")
    lines.append(f"Dice: {dice.seeded} seeded ({dice.rederived} re-derived and equal), {dice.reported} reported "
                 "(checked for range only).")
    return lines
