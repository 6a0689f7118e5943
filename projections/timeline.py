"""A fight's timeline as a picture (SVG): rounds across, combatants down, each attack, action,
hit, decision and turn's end marked where it happened.

Pure: it reads decoded events and what the viewer may not see, and writes SVG text. What an
event is comes from structured data only: the core's round, turn and reaction events, and the
ruleset's statistics door (``Ruleset.exchange`` and ``Ruleset.tally``, the same counts
``/statistics`` serves). A mark that concerns a combatant hidden from the viewer, as actor or as
opponent, is left out, like every count the statistics leave out; so is an event the viewer's
filter redacts whole, and one a retcon undid. Names come from the viewer's own state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from domain.core.encounter import Event, RoundStarted, TurnEnded
from domain.core.reactions import ReactionPassed
from domain.core.ruleset import Ruleset
from domain.core.tally import Exchange

# kind -> (the letter drawn in it, the word in its tooltip and legend); letters and shapes, not colour alone
KINDS: dict[str, tuple[str, str]] = {
    "attack": ("A", "attacks"),
    "hit": ("H", "is hit"),
    "action": ("C", "acts"),
    "decision": ("D", "decides"),
    "turn": ("T", "ends the turn"),
}
COLOURS = {"attack": "#8a1c1c", "hit": "#b35900", "action": "#1f4e8c", "decision": "#2d6a2d", "turn": "#555555"}


@dataclass(frozen=True)
class Mark:
    """One thing a combatant did or had done to them, at ``version``, in ``round`` (0: before the first)."""

    version: int
    round: int
    combatant: str
    kind: str
    amount: int = 0  # a hit's Hits (or damage), where the ruleset counts them


def marks(ruleset: Ruleset, events: Iterable[tuple[int, Event]], hidden: frozenset[str],
          redacted: Callable[[int], bool]) -> list[Mark]:
    """The marks of ``events`` (version, event: those that still stand, oldest first) that a viewer
    who may not see ``hidden`` (nor the versions ``redacted`` says) may see."""
    out: list[Mark] = []
    round_ = 0
    sides: dict[int, tuple[str, str]] = {}
    for version, event in events:
        step = ruleset.exchange(event)
        attack = None
        if step is not None:
            if step.opens is not None:
                sides[step.id] = (step.opens.attacker, step.opens.defender)
            if step.id in sides:
                attack = Exchange(step.id, *sides[step.id])
        if isinstance(event, RoundStarted):
            round_ = event.round
            continue
        if redacted(version):
            continue
        found: dict[tuple[str, str], int] = {}
        if isinstance(event, TurnEnded):
            found[(event.combatant_id, "turn")] = 0
        elif isinstance(event, ReactionPassed):
            found[(event.combatant_id, "decision")] = 0
        for t in ruleset.tally(event, attack):
            if not t.amount or t.combatant in hidden or t.opponent in hidden:
                continue
            if t.statistic == "attacks_made":
                found[(t.combatant, "attack")] = 0
            elif t.statistic == "hits_taken":
                found[(t.combatant, "hit")] = found.get((t.combatant, "hit"), 0) + t.amount
            elif t.statistic == "defences_tried":
                found[(t.combatant, "decision")] = 0
            elif t.statistic == "action_points_spent":
                found.setdefault((t.combatant, "action"), 0)
        for (who, kind), amount in found.items():
            if who in hidden:
                continue
            if kind == "action" and (who, "attack") in found:
                continue  # the attack's AP: the attack's mark says it
            out.append(Mark(version, round_, who, kind, amount))
    return out


# ------------------------------------------------------------------------------ drawing

LABEL_W, HEAD_H, ROW_H, STEP_W, PAD, LEGEND_H = 150, 34, 30, 26, 10, 28


def svg(title: str, combatants: Sequence[tuple[str, str]], found: Sequence[Mark]) -> str:
    """The timeline of ``found`` marks, one row per ``combatants`` (id, name, in order of play or of
    joining), one column per event that marks something, the columns grouped by round. Marks of
    a combatant not among the rows are left out. Same input, same bytes."""
    rows = {cid: i for i, (cid, _) in enumerate(combatants)}
    names = dict(combatants)
    shown = [m for m in found if m.combatant in rows]
    columns: list[tuple[int, int]] = []  # (round, version), in order
    for m in shown:
        if not columns or columns[-1][1] != m.version:
            columns.append((m.round, m.version))
    column_of = {version: i for i, (_, version) in enumerate(columns)}
    rounds: dict[int, list[int]] = {}
    for i, (round_, _) in enumerate(columns):
        rounds.setdefault(round_, []).append(i)
    gap = {r: n for n, r in enumerate(sorted(rounds))}  # a little space before each round

    def x_of(column: int) -> int:
        return LABEL_W + PAD + column * STEP_W + gap[columns[column][0]] * PAD + STEP_W // 2

    width = LABEL_W + 2 * PAD + max(len(columns), 1) * STEP_W + len(rounds) * PAD + PAD
    width = max(width, PAD + sum(36 + 7 * len(word) for _, word in KINDS.values()) + PAD)  # the legend fits
    height = HEAD_H + max(len(combatants), 1) * ROW_H + LEGEND_H + PAD
    n_rounds = len([r for r in rounds if r > 0])
    desc = (f"{len(combatants)} combatant{'s' if len(combatants) != 1 else ''} down, "
            f"{n_rounds} round{'s' if n_rounds != 1 else ''} across, {len(shown)} mark{'s' if len(shown) != 1 else ''}.")
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="timeline-title timeline-desc" '
            f'font-family="system-ui, sans-serif" font-size="12">'),
           f'<title id="timeline-title">{escape("Timeline: " + title)}</title>',
           f'<desc id="timeline-desc">{escape(desc)}</desc>',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>']
    for round_, cols in sorted(rounds.items()):
        left = x_of(cols[0]) - STEP_W // 2
        right = x_of(cols[-1]) + STEP_W // 2
        label = f"Round {round_}" if round_ > 0 else "Before"
        out.append(f'<g class="round" data-round="{round_}"><rect x="{left}" y="{HEAD_H - 6}" width="{right - left}" '
                   f'height="{len(combatants) * ROW_H + 6}" fill="{"#f2f2f2" if round_ % 2 else "#fafafa"}"/>'
                   f'<text x="{left + 2}" y="{HEAD_H - 12}" fill="#222222">{label}</text></g>')
    for cid, i in rows.items():
        y = HEAD_H + i * ROW_H + ROW_H // 2
        out.append(f'<g class="combatant" data-combatant={quoteattr(cid)}>'
                   f'<text x="{PAD}" y="{y + 4}" fill="#111111">{escape(_short(names[cid]))}</text>'
                   f'<line x1="{LABEL_W}" y1="{y}" x2="{width - PAD}" y2="{y}" stroke="#cccccc"/></g>')
    for m in shown:
        x, y = x_of(column_of[m.version]), HEAD_H + rows[m.combatant] * ROW_H + ROW_H // 2
        letter, word = KINDS[m.kind]
        tip = f"Round {m.round}: {names[m.combatant]} {word}" if m.round else f"{names[m.combatant]} {word}"
        if m.amount:
            tip += f" ({m.amount})"
        out.append(f'<g class="mark {m.kind}" data-version="{m.version}"><title>{escape(tip)}</title>'
                   f'{_shape(m.kind, x, y)}<text x="{x}" y="{y + 4}" text-anchor="middle" fill="#ffffff" '
                   f'font-size="10" font-weight="bold">{letter}</text></g>')
    legend_y = HEAD_H + max(len(combatants), 1) * ROW_H + PAD + 8
    x = PAD
    out.append('<g class="legend">')
    for kind, (letter, word) in KINDS.items():
        out.append(f'{_shape(kind, x + 8, legend_y)}<text x="{x + 8}" y="{legend_y + 4}" text-anchor="middle" '
                   f'fill="#ffffff" font-size="10" font-weight="bold">{letter}</text>'
                   f'<text x="{x + 20}" y="{legend_y + 4}" fill="#222222">{escape(word)}</text>')
        x += 20 + 7 * len(word) + 16
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _shape(kind: str, x: int, y: int) -> str:
    """Each kind its own shape as well as its colour and letter."""
    fill = COLOURS[kind]
    if kind == "attack":
        return f'<polygon points="{x},{y - 9} {x + 9},{y} {x},{y + 9} {x - 9},{y}" fill="{fill}"/>'
    if kind == "hit":
        return f'<polygon points="{x},{y - 9} {x + 9},{y + 7} {x - 9},{y + 7}" fill="{fill}"/>'
    if kind == "turn":
        return f'<rect x="{x - 5}" y="{y - 9}" width="10" height="18" rx="2" fill="{fill}"/>'
    if kind == "decision":
        return f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}"/>'
    return f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}"/>'


def _short(name: str, at_most: int = 20) -> str:
    return name if len(name) <= at_most else name[: at_most - 1] + "…"


def rows_of(combatants: Mapping[str, object], order: Sequence[str] | None) -> list[tuple[str, str]]:
    """The rows: the combatants the viewer sees, in the order of play where there is one, then the rest
    in the order they joined."""
    ids = [c for c in (order or []) if c in combatants]
    ids += [c for c in combatants if c not in ids]
    return [(c, str(getattr(combatants[c], "name", c))) for c in ids]
