"""The docs by reader (issue 41): a short README that links the manual in docs/, and every relative link
of the README and of docs/ leading to a file that is there."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
BENCH = [REPO / "bench" / "README.md", *sorted((REPO / "bench" / "journal").glob("*.md"))]


def test_the_readme_is_short_and_links_each_page_of_the_manual() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    linked = set(re.findall(r"\]\((docs/[^)#]+)", readme))
    pages = {str(p.relative_to(REPO)) for p in PAGES[1:] if p.name != "README.md"}
    assert pages <= linked, f"pages the README does not link: {sorted(pages - linked)}"


def test_the_bench_readme_says_how_to_run_each_bench_and_keeps_its_journal_apart() -> None:
    """"bench/README.md: how to run each bench, and the targets with their latest figures. The dated
    notes go to bench/journal/"."""
    text = BENCH[0].read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300
    benches = {p.stem for p in (REPO / "bench").glob("*.py") if "def main(" in p.read_text(encoding="utf-8")}
    assert {b for b in benches if f"`python -m bench.{b}`" not in text} <= {"bare", "same", "loadgen", "instructions"}


def test_every_relative_link_leads_to_a_file() -> None:
    for page in PAGES + BENCH:
        for target in re.findall(r"\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#", 1)[0]).resolve()
            assert path.exists(), f"{page.relative_to(REPO)} links {target}, which is not there"
