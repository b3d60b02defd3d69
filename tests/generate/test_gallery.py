"""The gallery reproduces byte for byte: the README from the files, a bounded part of the puzzles, a picture.

The whole check (every puzzle and picture, about ten minutes on two cores)
is ``python -m solver.generate.gallery --check``.
"""

from __future__ import annotations

import filecmp
from pathlib import Path

from solver.generate.gallery import pictures, readme, write_puzzles
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


def test_a_picture_reproduces_byte_for_byte() -> None:
    src, answer, img = next(p for p in pictures(ROOT / "generated") if "discard" in p[0])
    png = svg_to_png(puzzle_svg(load(ROOT / "generated" / src), answer=answer, time_limit=30.0))
    assert png == (ROOT / "img" / img).read_bytes()


def test_every_picture_of_the_readme_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    drawn = pictures(ROOT / "generated")
    for _, _, img in drawn:
        assert (ROOT / "img" / img).is_file() and f"img/{img}" in text
    assert sorted(p.name for p in (ROOT / "img").iterdir()) == sorted(img for _, _, img in drawn)
