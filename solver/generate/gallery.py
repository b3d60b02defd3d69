"""The gallery of generated puzzles: ``puzzles/generated/``, its pictures and ``puzzles/README.md``.

Every file comes from one command, byte for byte::

    python -m solver.generate.gallery            # regenerate puzzles/generated, puzzles/img, puzzles/README.md
    python -m solver.generate.gallery --check    # the same into a temporary folder, compared file by file

The puzzles are ``shanghai generate GAME --difficulty LEVEL --count 8 --seed 1``
for each game and level (:data:`COMMAND`), and in ``puzzles/on-request/`` two of
each kind asked only on request at each level with a rung for it (a Contract
lay-down or whole hand, a Zheng Shang You lead: ``--question KIND --count 2``);
the README's tables count them by kind, its text samples and pictures are drawn
from fixed files (:data:`SAMPLES`, :data:`PICTURES`). ``tests/generate/test_gallery.py``
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
from solver.generate.ladder import ON_REQUEST, kinds_at
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, dumps, iter_puzzle_paths, load

__all__ = [
    "COMMAND",
    "ASKED",
    "asked_cells",
    "SAMPLES",
    "PICTURES",
    "first",
    "pictures",
    "SEED",
    "COUNT",
    "write_puzzles",
    "write_asked",
    "readme",
    "write_images",
    "main",
]

SEED = 1
COUNT = 8
ASKED = 2
"""How many puzzles of each kind asked on request, at each level with a rung for it."""


def asked_cells() -> list[tuple[str, str, str]]:
    """(game, level, kind) of every kind asked only on request (:data:`~solver.generate.ladder.ON_REQUEST`)
    at every level with a rung for it: the cells of ``puzzles/on-request``."""
    return [(g, lv, q) for g in GAMES for q in ON_REQUEST[g] for lv in LEVELS if q in kinds_at(g, lv)]


COMMAND = f"""for g in manipulation contract zsy; do for l in easy medium hard expert; do
  shanghai generate $g --difficulty $l --count {COUNT} --seed {SEED} -o puzzles/generated/$g; done; done
for c in {" ".join(f'"{g} {lv} {q}"' for g, lv, q in asked_cells())}; do set -- $c
  shanghai generate $1 --difficulty $2 --question $3 --count {ASKED} --seed {SEED} -o puzzles/on-request/$1; done"""
"""The shell command that makes ``puzzles/generated`` and ``puzzles/on-request`` (what
:func:`write_puzzles` and :func:`write_asked` do in-process)."""

KINDS = {
    "manipulation": (("play", "play N cards"),),
    "contract": (("layoff", "lay-off"), ("goout", "go out"), ("discard", "discard")),
    "zsy": (("out", "out in K"), ("reply", "reply or pass")),
}
NAMES = {"manipulation": "Manipulation", "contract": "Contract", "zsy": "Zheng Shang You"}
ASKED_NAMES = {"laydown": "which lay-down", "whole": "whole hand: which discard", "lead": "which lead wins"}

SAMPLES = (
    ("generated", "manipulation", "easy", "play"),
    ("generated", "manipulation", "expert", "play"),
    ("generated", "contract", "hard", "layoff"),
    ("generated", "contract", "expert", "discard"),
    ("generated", "zsy", "medium", "out"),
    ("generated", "zsy", "hard", "reply"),
    ("on-request", "contract", "medium", "laydown"),
    ("on-request", "zsy", "expert", "lead"),
)
"""The files shown as text: the first of each (folder, game, level, kind)."""

PICTURES = (
    ("generated", "manipulation", "expert", "play", False),
    ("generated", "manipulation", "expert", "play", True),
    ("generated", "contract", "hard", "layoff", True),
    ("generated", "contract", "expert", "discard", True),
    ("generated", "zsy", "hard", "reply", True),
    ("on-request", "contract", "medium", "laydown", True),
    ("on-request", "contract", "easy", "whole", True),
    ("on-request", "zsy", "hard", "lead", True),
)
"""The pictures in ``puzzles/img``: the first puzzle of each (folder, game, level, kind), with its answer or not."""


def first(root: Path, folder: str, game: str, level: str, kind: str) -> str:
    """The path (under ``root``, the puzzles folder) of the first puzzle of that game, level and kind in ``folder``."""
    for path in sorted((root / folder / game).glob(f"{level}-{kind}-*.toml")):
        return f"{folder}/{game}/{path.name}"
    raise FileNotFoundError(f"no {level} {kind} puzzle of {game} in {root / folder}")


def pictures(root: Path) -> list[tuple[str, bool, str]]:
    """:data:`PICTURES` resolved: (puzzle path under ``root``, with the answer, picture file name)."""
    out = []
    for folder, game, level, kind, answer in PICTURES:
        src = first(root, folder, game, level, kind)
        name = src.removeprefix(f"{folder}/").replace("/", "-").removesuffix(".toml")
        out.append((src, answer, f"{name}{'-answer' if answer else ''}.png"))
    return out


def write_puzzles(out: Path, games: tuple[str, ...] = GAMES, levels: tuple[str, ...] = LEVELS) -> None:
    """Generate the gallery's puzzles into ``out/GAME/`` (as :data:`COMMAND` does)."""
    for game in games:
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        for level in levels:
            for i, puzzle in enumerate(generate(game, level, COUNT, SEED), 1):
                (folder / file_name(puzzle, i)).write_text(dumps(puzzle), encoding="utf-8")


def write_asked(out: Path, levels: tuple[str, ...] = LEVELS) -> None:
    """Generate the kinds asked on request into ``out/GAME/`` (``puzzles/on-request``, as :data:`COMMAND` does)."""
    for game, level, kind in asked_cells():
        if level not in levels:
            continue
        folder = out / game
        folder.mkdir(parents=True, exist_ok=True)
        for i, puzzle in enumerate(generate(game, level, ASKED, SEED, question=kind), 1):
            (folder / file_name(puzzle, i)).write_text(dumps(puzzle), encoding="utf-8")


def _counts(folder: Path) -> Counter[tuple[object, object]]:
    return Counter((p.meta.get("difficulty"), p.meta.get("kind")) for p in map(load, iter_puzzle_paths(folder)))


def _table(root: Path) -> list[str]:
    rows = ["| game | easy | medium | hard | expert |", "|---|---|---|---|---|"]
    for game in GAMES:
        counts = _counts(root / "generated" / game)
        kinds = KINDS[game]
        cells = [" / ".join(str(counts[(level, k)]) for k, _ in kinds) for level in LEVELS]
        rows.append(f"| {NAMES[game]}: {' / '.join(w for _, w in kinds)} | {' | '.join(cells)} |")
    return rows


def _asked_table(root: Path) -> list[str]:
    rows = ["| game: question | easy | medium | hard | expert |", "|---|---|---|---|---|"]
    for game in GAMES:
        counts = _counts(root / "on-request" / game) if ON_REQUEST[game] else Counter()
        for kind in ON_REQUEST[game]:
            cells = [str(counts[(lv, kind)]) if kind in kinds_at(game, lv) else "-" for lv in LEVELS]
            rows.append(f"| {NAMES[game]}: {ASKED_NAMES[kind]} (`{kind}`) | {' | '.join(cells)} |")
    return rows


def _features(p: Puzzle) -> str:
    feats = ", ".join(f"{k} {v}" for k, v in p.meta.get("features", {}).items())
    return f"{p.meta.get('difficulty')}, score {p.meta.get('score')}: {feats}"


def _position(p: Puzzle) -> list[str]:
    pos = p.position
    if isinstance(pos, ManipulationPosition):
        return [*(f"table  {m}" for m in pos.table), f"hand   {pos.hand}"]
    if isinstance(pos, ContractPosition):
        contract = p.rules.contract_text(pos.round)  # type: ignore[union-attr]
        lines = [f"round  {pos.round}: {contract}{'  (laid down)' if pos.laid_down else ''}"]
        lines += [f"table  p{t.owner} {t.meld}" for t in pos.table]
        return [*lines, f"hand   {pos.hand}"]
    lines = [f"hand   {pos.hand}"]
    if pos.opponent is not None:
        lines.append(f"opp.   {pos.opponent}  (the last opponent's hand, known)")
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
    asked = len(iter_puzzle_paths(root / "on-request")) if (root / "on-request").is_dir() else 0
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
        *_table(root),
        "",
        f"`on-request/` holds {asked} puzzles of the kinds a level asks only on request",
        f"(`shanghai generate --question KIND`, {ASKED} of each at each level with a rung for",
        "it, the second loop above): which lay-down leaves the best lay-off, which",
        "discard lets a round-7 hand go down all at once, which lead wins a two-player",
        "Zheng Shang You endgame against the known hand:",
        "",
        *_asked_table(root),
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
            f"shanghai render puzzles/{src}{' --answer' if ans else ''} -o puzzles/img/{img}"
            for src, ans, img in pictures(root)
        ),
        "```",
        "",
    ]
    for src, ans, img in pictures(root):
        title = load(root / src).title
        out += [f"![{title}{' (answer)' if ans else ''}](img/{img})", ""]
    out += ["## A few positions, as text", ""]
    for folder, game, level, kind in SAMPLES:
        src = first(root, folder, game, level, kind)
        p = load(root / src)
        out += [f"### {p.title} — `{src}`", "", _features(p), "", "```", *_position(p), "```"]
        out += ["<details><summary>answer</summary>", "", *_answer(p), "", "</details>", ""]
    return "\n".join(out).rstrip() + "\n"


def write_images(root: Path, time_limit: float = 30.0) -> None:
    """Draw :data:`PICTURES` into ``root/img`` from the puzzles under ``root/generated``."""
    from solver.picture import puzzle_svg, svg_to_png

    (root / "img").mkdir(exist_ok=True)
    for src, ans, img in pictures(root):
        svg = puzzle_svg(load(root / src), answer=ans, time_limit=time_limit)
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
        write_asked(root / "on-request")
        write_images(root)
        (root / "README.md").write_text(readme(root), encoding="utf-8")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        write_puzzles(fresh / "generated")
        write_asked(fresh / "on-request")
        write_images(fresh)
        (fresh / "README.md").write_text(readme(fresh), encoding="utf-8")
        wrong = _differences(fresh / "generated", root / "generated")
        wrong += [f"on-request/{n}" for n in _differences(fresh / "on-request", root / "on-request")]
        wrong += [f"img/{n}" for n in _differences(fresh / "img", root / "img")]
        if (fresh / "README.md").read_text(encoding="utf-8") != (root / "README.md").read_text(encoding="utf-8"):
            wrong.append("README.md")
    for name in wrong:
        print(f"differs: {name}", file=sys.stderr)
    print(f"{len(wrong)} file(s) differ" if wrong else "the gallery reproduces byte for byte", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
