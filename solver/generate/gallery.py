"""The gallery of generated puzzles: ``puzzles/generated/``, its pictures and ``puzzles/README.md``.

Every file comes from one command, byte for byte::

    python -m solver.generate.gallery            # regenerate puzzles/generated, puzzles/img, puzzles/README.md
    python -m solver.generate.gallery --check    # the same into a temporary folder, compared file by file

The puzzles are ``shanghai generate GAME --difficulty LEVEL --count 8 --seed 1``
for each game and level (:data:`COMMAND`); the README's table counts them by
kind, its text samples and pictures are drawn from fixed files
(:data:`SAMPLES`, :data:`PICTURES`). ``tests/generate/test_gallery.py``
checks the README and a bounded part of the puzzles on every run; the whole
check took 8.5 minutes on the shared two cores (docs/generate.md).
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
from collections import Counter
from pathlib import Path

from solver.generate import GAMES, LEVELS, file_name, generate
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, dumps, iter_puzzle_paths, load

__all__ = [
    "COMMAND",
    "SAMPLES",
    "PICTURES",
    "first",
    "pictures",
    "SEED",
    "COUNT",
    "write_puzzles",
    "readme",
    "write_images",
    "main",
]

SEED = 1
COUNT = 8

COMMAND = f"""for g in manipulation contract zsy; do for l in easy medium hard expert; do
  shanghai generate $g --difficulty $l --count {COUNT} --seed {SEED} -o puzzles/generated/$g; done; done"""
"""The shell command that makes ``puzzles/generated`` (what :func:`write_puzzles` does in-process)."""

KINDS = {
    "manipulation": (("play", "play N cards"),),
    "contract": (("layoff", "lay-off"), ("goout", "go out"), ("discard", "discard")),
    "zsy": (("out", "out in K"), ("reply", "reply or pass")),
}
NAMES = {"manipulation": "Manipulation", "contract": "Contract", "zsy": "Zheng Shang You"}

SAMPLES = (
    ("manipulation", "easy", "play"),
    ("manipulation", "expert", "play"),
    ("contract", "hard", "layoff"),
    ("contract", "expert", "discard"),
    ("zsy", "medium", "out"),
    ("zsy", "hard", "reply"),
)
"""The files shown as text: the first of each (game, level, kind)."""

PICTURES = (
    ("manipulation", "expert", "play", False),
    ("manipulation", "expert", "play", True),
    ("contract", "hard", "layoff", True),
    ("contract", "expert", "discard", True),
    ("zsy", "hard", "reply", True),
)
"""The pictures in ``puzzles/img``: the first puzzle of each (game, level, kind), with its answer or not."""


def first(generated: Path, game: str, level: str, kind: str) -> str:
    """The path (under ``generated``) of the first puzzle of that game, level and kind."""
    for path in sorted((generated / game).glob(f"{level}-{kind}-*.toml")):
        return f"{game}/{path.name}"
    raise FileNotFoundError(f"no {level} {kind} puzzle of {game} in {generated}")


def pictures(generated: Path) -> list[tuple[str, bool, str]]:
    """:data:`PICTURES` resolved: (puzzle path under ``generated``, with the answer, picture file name)."""
    out = []
    for game, level, kind, answer in PICTURES:
        src = first(generated, game, level, kind)
        out.append((src, answer, f"{src.replace('/', '-').removesuffix('.toml')}{'-answer' if answer else ''}.png"))
    return out


def write_puzzles(out: Path, games: tuple[str, ...] = GAMES, levels: tuple[str, ...] = LEVELS) -> None:
    """Generate the gallery's puzzles into ``out/GAME/`` (as :data:`COMMAND` does)."""
    for game in games:
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        for level in levels:
            for i, puzzle in enumerate(generate(game, level, COUNT, SEED), 1):
                (folder / file_name(puzzle, i)).write_text(dumps(puzzle), encoding="utf-8")


def _table(generated: Path) -> list[str]:
    rows = ["| game | easy | medium | hard | expert |", "|---|---|---|---|---|"]
    for game in GAMES:
        counts = Counter(
            (p.meta.get("difficulty"), p.meta.get("kind")) for p in map(load, iter_puzzle_paths(generated / game))
        )
        kinds = KINDS[game]
        cells = [" / ".join(str(counts[(level, k)]) for k, _ in kinds) for level in LEVELS]
        rows.append(f"| {NAMES[game]}: {' / '.join(w for _, w in kinds)} | {' | '.join(cells)} |")
    return rows


def _features(p: Puzzle) -> str:
    feats = ", ".join(f"{k} {v}" for k, v in p.meta.get("features", {}).items())
    return f"{p.meta.get('difficulty')}, score {p.meta.get('score')}: {feats}"


def _position(p: Puzzle) -> list[str]:
    pos = p.position
    if isinstance(pos, ManipulationPosition):
        return [*(f"table  {m}" for m in pos.table), f"hand   {pos.hand}"]
    if isinstance(pos, ContractPosition):
        contract = " + ".join(map(str, p.rules.contract(pos.round)))  # type: ignore[union-attr]
        lines = [f"round  {pos.round}: {contract}{'  (laid down)' if pos.laid_down else ''}"]
        lines += [f"table  p{t.owner} {t.meld}" for t in pos.table]
        return [*lines, f"hand   {pos.hand}"]
    lines = [f"hand   {pos.hand}"]
    if pos.to_beat is not None:
        lines.append(f"beat   {pos.to_beat_kind}:{pos.to_beat}")
    return lines


def _answer(p: Puzzle) -> list[str]:
    solution = p.meta.get("solution")
    if isinstance(solution, list):
        return [f"{n}. {line}" for n, line in enumerate(solution, 1)]
    then = p.meta.get("then")
    swaps = p.meta.get("swaps") or []
    text = f"**{solution}**"
    if then is not None:
        text += f" then {' | '.join(then)}"
    if swaps:
        text += f" (swap {'; '.join(swaps)})"
    return [text]


def readme(root: Path) -> str:
    """The text of ``puzzles/README.md`` for the files under ``root`` (the ``puzzles`` folder)."""
    generated = root / "generated"
    total = sum(len(iter_puzzle_paths(generated / g)) for g in GAMES)
    out = [
        "# Generated puzzles",
        "",
        f"`generated/` holds {total} puzzles made by `shanghai generate` (seed {SEED}, {COUNT} a level",
        "for each game), each with a unique answer verified by the referee and checked",
        "by `shanghai solve puzzles/generated --check` (which replays each stated",
        "solution, too). Every position is legal (`shanghai check`). Each file's `[meta]`",
        "has the kind of question, the measured difficulty (level, score, features: the",
        "idea the answer needs and the models of a human solver that miss it) and the",
        "solution; see [docs/generate.md](../docs/generate.md). Made with:",
        "",
        "```sh",
        COMMAND,
        "```",
        "",
        "or, with the pictures and this README, `python -m solver.generate.gallery`",
        "(`--check` regenerates everything into a temporary folder and compares it",
        "with these files byte for byte).",
        "",
        *_table(generated),
        "",
        "## Pictures",
        "",
        "Drawn by `shanghai render FILE -o out.png [--answer]` with the web page's card",
        "drawings: laid-off and played cards framed green, moved cards and swapped wilds",
        "orange, each step numbered, every wild tagged with the card it stands for, the",
        "answer in words, the rules and the difficulty in small print:",
        "",
        "```sh",
        *(
            f"shanghai render puzzles/generated/{src}{' --answer' if ans else ''} -o puzzles/img/{img}"
            for src, ans, img in pictures(generated)
        ),
        "```",
        "",
    ]
    for src, ans, img in pictures(generated):
        title = load(generated / src).title
        out += [f"![{title}{' (answer)' if ans else ''}](img/{img})", ""]
    out += ["## A few positions, as text", ""]
    for game, level, kind in SAMPLES:
        src = first(generated, game, level, kind)
        p = load(generated / src)
        out += [f"### {p.title} — `generated/{src}`", "", _features(p), "", "```", *_position(p), "```"]
        out += ["<details><summary>answer</summary>", "", *_answer(p), "", "</details>", ""]
    return "\n".join(out).rstrip() + "\n"


def write_images(root: Path, time_limit: float = 30.0) -> None:
    """Draw :data:`PICTURES` into ``root/img`` from the puzzles under ``root/generated``."""
    from solver.picture import puzzle_svg, svg_to_png

    (root / "img").mkdir(exist_ok=True)
    for src, ans, img in pictures(root / "generated"):
        svg = puzzle_svg(load(root / "generated" / src), answer=ans, time_limit=time_limit)
        (root / "img" / img).write_bytes(svg_to_png(svg))


def _differences(a: Path, b: Path) -> list[str]:
    names = sorted(
        {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
        | {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    )
    return [
        str(n)
        for n in names
        if not ((a / n).is_file() and (b / n).is_file() and filecmp.cmp(a / n, b / n, shallow=False))
    ]


def main(argv: list[str] | None = None) -> int:
    """Regenerate the gallery (or with ``--check`` compare a fresh one with it); exit 1 on a difference."""
    parser = argparse.ArgumentParser(prog="python -m solver.generate.gallery", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path("puzzles"), help="the puzzles folder (default: puzzles)")
    parser.add_argument("--check", action="store_true", help="compare a fresh gallery with the files; change nothing")
    args = parser.parse_args(argv)
    root: Path = args.root
    if not args.check:
        write_puzzles(root / "generated")
        write_images(root)
        (root / "README.md").write_text(readme(root), encoding="utf-8")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        write_puzzles(fresh / "generated")
        write_images(fresh)
        (fresh / "README.md").write_text(readme(fresh), encoding="utf-8")
        wrong = _differences(fresh / "generated", root / "generated")
        wrong += [f"img/{n}" for n in _differences(fresh / "img", root / "img")]
        if (fresh / "README.md").read_text(encoding="utf-8") != (root / "README.md").read_text(encoding="utf-8"):
            wrong.append("README.md")
    for name in wrong:
        print(f"differs: {name}", file=sys.stderr)
    print(f"{len(wrong)} file(s) differ" if wrong else "the gallery reproduces byte for byte", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
