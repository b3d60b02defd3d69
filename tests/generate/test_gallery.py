"""The gallery reproduces byte for byte: the README from the files, a bounded part of the puzzles, a picture.

The whole check (every puzzle and picture, about ten minutes on two cores)
is ``python -m solver.generate.gallery --check``.
"""

from __future__ import annotations

import filecmp
from pathlib import Path

from solver.generate.gallery import pictures, readme, write_asked, write_puzzles
from solver.picture import puzzle_svg, svg_to_png
from solver.puzzles import load

ROOT = Path(__file__).resolve().parents[2] / "puzzles"


def test_the_readme_is_what_the_gallery_writes() -> None:
    assert (ROOT / "README.md").read_text(encoding="utf-8") == readme(ROOT)


def test_easy_contract_and_zsy_puzzles_reproduce_byte_for_byte(tmp_path: Path) -> None:
    write_puzzles(tmp_path, games=("contract", "zsy"), levels=("easy",))
    for game in ("contract", "zsy"):
        fresh = sorted(p.name for p in (tmp_path / game).glob("*.toml"))
        bundled = sorted(p.name for p in (ROOT / "generated" / game).glob("easy-*.toml"))
        assert fresh == bundled
        for name in fresh:
            assert filecmp.cmp(tmp_path / game / name, ROOT / "generated" / game / name, shallow=False), name


def test_easy_puzzles_asked_on_request_reproduce_byte_for_byte(tmp_path: Path) -> None:
    # puzzles/on-request: a round-7 whole hand and a Zheng Shang You lead at easy
    write_asked(tmp_path, levels=("easy",))
    fresh = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.toml"))
    bundled = sorted(str(p.relative_to(ROOT / "on-request")) for p in (ROOT / "on-request").rglob("easy-*.toml"))
    assert fresh == bundled and {n.split("-")[1] for n in fresh} == {"whole", "lead"}, fresh
    for name in fresh:
        assert filecmp.cmp(tmp_path / name, ROOT / "on-request" / name, shallow=False), name


def test_a_picture_reproduces_byte_for_byte() -> None:
    for kind in ("discard", "lead"):
        src, answer, img = next(p for p in pictures(ROOT) if kind in p[0])
        png = svg_to_png(puzzle_svg(load(ROOT / src), answer=answer, time_limit=30.0))
        assert png == (ROOT / "img" / img).read_bytes(), src


def test_every_picture_of_the_readme_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    drawn = pictures(ROOT)
    for _, _, img in drawn:
        assert (ROOT / "img" / img).is_file() and f"img/{img}" in text
    assert sorted(p.name for p in (ROOT / "img").iterdir()) == sorted(img for _, _, img in drawn)
