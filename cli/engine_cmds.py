"""``shanghai hint``, ``shanghai play`` and ``shanghai selfplay``: thin shells over :mod:`solver.engine`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cli import choices
from cli.common import (
    EXIT_FAIL,
    bad_input,
    cards_parts,
    emit_json,
    err,
    error,
    meld_parts,
    out,
    plural,
    progress_bar,
    say,
    seconds_option,
)
from cli.files import wrong_kind
from cli.inline import PresetName
from cli.overrides import rule_overrides
from solver.cards import Cards
from solver.errors import IllegalActionError, ShanghaiError

__all__ = ["hint", "play", "selfplay_cmd", "SHOWN_ACTIONS", "action_summary"]

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine output: one JSON object on stdout.")]
PresetOpt = Annotated[Optional[PresetName], typer.Option(help="Rule preset (see shanghai rules).")]  # noqa: UP045
RuleOpt = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Option("--rule", metavar="KEY=VALUE", help="Rule option KEY=VALUE (repeatable; see shanghai rules)."),
]
SHOWN_ACTIONS = 8
"""How many legal actions ``play`` lists each turn (``?`` lists them all)."""


def _rules_arg(preset: Any, rule: list[str] | None) -> dict[str, Any]:
    return rule_overrides(preset, rule or [])


def hint(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or a puzzle file (.toml).")],
    json: JsonOpt = False,
    time_limit: Annotated[float, seconds_option("Seconds per solver question.")] = 10.0,
    player: Annotated[
        str,
        typer.Option(
            "--player",
            help=f"Who answers a game record: {choices.PLAYER_HELP}.",
            autocompletion=choices.complete_player,
        ),
    ] = "solver",
) -> None:
    """The best action for the player to move, and why.

    A game record is replayed and the solver player's choice shown; a puzzle
    file's position is answered directly. The action is printed in the form
    play and the engine accept.
    """
    from solver.engine.hints import hint_for_game, hint_for_puzzle
    from solver.puzzles import load

    _check_player(player)
    wrong = wrong_kind(file)
    if wrong:
        bad_input(wrong)
    try:
        if file.suffix == ".json":
            from cli.records import load_game

            _, game = load_game(file)
            if game.is_terminal():
                bad_input(f"{file}: the game is over; there is nothing to hint")
            if hasattr(game, "time_limit"):
                game.time_limit = time_limit
            decision = hint_for_game(game, player)
            data = {
                "file": str(file),
                "game": game.GAME,
                "player": game.current_player(),
                "action": str(decision.action),
            }
        else:
            puzzle = load(file)
            decision = hint_for_puzzle(puzzle, time_limit)
            data = {"file": str(file), "game": puzzle.game, "player": 0, "action": str(decision.action)}
    except ShanghaiError as exc:
        bad_input(str(exc))
    data["reason"] = decision.reason
    data["facts"] = decision.facts
    if json:
        emit_json(data)
    else:
        say(out, (f"player {data['player']}:", "bold"), " ", str(data["action"]))
        say(out, "  ", ("why:", "dim"), " ", decision.reason)


def _show(game: Any, player: int) -> None:
    obs = game.observation(player)
    head: list[Any] = [(game.GAME, "bold"), f"  scores {obs['scores']}"]
    if "round" in obs:
        head.append(f"  round {obs['round']} ({obs['contract']})")
    say(out, *head)
    for i, meld in enumerate(obs.get("table", [])):
        text = meld["cards"] if isinstance(meld, dict) else meld
        owner = [(f" p{meld['owner']}", "dim")] if isinstance(meld, dict) else []
        say(out, f"  [{i}]", owner, " ", _meld(text))
    if obs.get("trick"):
        say(out, f"  trick: {obs['trick']} ", (f"(player {obs['trick_player']})", "dim"))
    if obs.get("discard"):
        say(out, "  discard: ", cards_parts(Cards.parse(obs["discard"])))
    sizes = ", ".join(f"p{q}: {n}" for q, n in enumerate(obs["hand_sizes"]))
    say(out, f"  cards in hand: {sizes}")
    hand = Cards.parse(" ".join(obs["hand"]))
    if game.GAME == "zsy":  # in rank order, the climbing game's order
        from cli.position_view import zsy_order

        say(out, "  your hand: ", cards_parts(zsy_order(hand)))
    else:
        say(out, "  your hand: ", cards_parts(hand))


def _meld(text: str) -> Any:
    from solver.melds import Meld

    return meld_parts(Meld.parse(text))


def _noun(word: str, n: int) -> str:
    """``1 pass``, ``2 passes``, ``3 plays``."""
    return plural(n, word, word + "es" if word.endswith(("s", "sh", "ch", "x")) else None)


def action_summary(groups: dict[str, int]) -> str:
    """What follows ``N legal actions``: ``: a pass``, ``, all plays``, ``: 641 plays and 1 pass``.

    >>> action_summary({"pass": 1}), action_summary({"play": 642}), action_summary({"play": 641, "pass": 1})
    (': a pass', ', all plays', ': 641 plays and 1 pass')
    """
    if len(groups) == 1:
        ((word, n),) = groups.items()
        return f": a {word}" if n == 1 else f", all {_noun(word, n).split(' ', 1)[1]}"
    parts = [_noun(word, n) for word, n in groups.items()]
    return ": " + ", ".join(parts[:-1]) + " and " + parts[-1]


def _list_actions(legal: Sequence[Any], every: bool = False) -> None:
    """The legal actions, grouped by kind; the first few (``every``: all), numbered."""
    groups: dict[str, int] = {}
    for a in legal:
        word = str(a).split(" ", 1)[0].split(":", 1)[0]
        groups[word] = groups.get(word, 0) + 1
    say(out, "  ", (plural(len(legal), "legal action"), "bold"), action_summary(groups))
    shown = legal if every else legal[:SHOWN_ACTIONS]
    for i, a in enumerate(shown):
        say(out, f"  {i:>3}  ", str(a))
    if len(shown) < len(legal):
        say(out, ("  ... " + f"{len(legal) - len(shown)} more" + ": type ? to list them all", "dim"))


def _hand_marker(game: Any) -> tuple[Any, ...]:
    """Changes when a hand (a round) ends."""
    return (getattr(game, "hand_number", None), len(getattr(game, "round_scores", [])), tuple(game.scores()))


def _hand_over(game: Any) -> None:
    """Who finished the hand that just ended, and the scores."""
    places = getattr(game, "last_places", None)
    if places:
        finished = "finished in order: " + ", ".join(f"p{q}" for q in places)
    else:
        left = (getattr(game, "round_scores", None) or [None])[-1] or getattr(game, "last_hand", None) or []
        out_players = [q for q, pts in enumerate(left) if pts == 0]
        finished = "went out: " + (", ".join(f"p{q}" for q in out_players) if out_players else "nobody")
    say(out, ("hand over", "bold"), f": {finished}; scores {game.scores()}")


class _Recorder:
    """Writes the game record after every action, so a crash never loses a game (``--save``; see cli/records.py)."""

    def __init__(self, path: Path | None, kinds: list[str], force: bool = False, game: str | None = None) -> None:
        from cli.records import RecordFile

        self.path = path
        self.kinds = kinds
        self.file = RecordFile(path, force, game) if path is not None else None
        if self.file is not None:
            try:
                self.file.check()
            except ShanghaiError as exc:
                bad_input(str(exc))

    def write(self, game: Any) -> None:
        if self.file is None:
            return
        from solver.engine import record_of

        try:
            self.file.write(record_of(game, self.kinds).to_json())
        except ShanghaiError as exc:
            bad_input(str(exc))


def _players_for(game_name: str, rules: dict[str, Any], players: int | None) -> int:
    """The player count: as given, else what the rules need (teams6: 6), else 4."""
    if players is not None:
        return players
    from solver.rules import rules_for

    try:
        rule_set: Any = rules_for(game_name, rules)
    except ShanghaiError:
        return 4  # new_game reports the bad rules
    if getattr(rule_set, "teams", None) == "teams6":
        return 6
    return int(min(max(4, rule_set.min_players), rule_set.max_players))


def _cut(message: str, width: int = 200) -> str:
    """A message cut to ``width`` characters: an illegal line of megabytes is not echoed whole."""
    return message if len(message) <= width else message[: width - 1] + "…"


def _human_turn(game: Any, you: int) -> Any:
    """Ask for the human's action until it is legal; ``None`` to stop."""
    from solver.engine.hints import hint_for_game

    _show(game, you)
    legal = game.legal_actions()
    _list_actions(legal)
    while True:
        try:
            text = input("your move> ").strip()
        except EOFError:
            return None
        if text in ("quit", "q", "exit"):
            return None
        if text in ("help", "?", ""):
            _list_actions(legal, every=text != "")
            continue
        if text == "hint":
            d = hint_for_game(game)
            say(out, ("hint:", "green"), f" {d.action}  ", (f"({d.reason})", "dim"))
            continue
        try:
            action = legal[int(text)] if text.isdigit() else game.parse_action(text)
            game.verify(action)
            return action
        except IndexError:
            error(f"no action number {text[:40]} (0-{len(legal) - 1})", label="illegal")
        except (IllegalActionError, ValueError) as exc:
            error(_cut(str(exc)), label="illegal")


def play(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help=choices.GAME_HELP, autocompletion=choices.complete_game)
    ],
    players: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--players", "-n", help="Number of players, you are player 0 (default: 4, or what the rules need)."
        ),
    ] = None,
    opponents: Annotated[
        str, typer.Option(help=choices.OPPONENT_HELP, autocompletion=choices.complete_player)
    ] = "solver",
    seed: Annotated[int, typer.Option(help="Deal seed.")] = 0,
    preset: PresetOpt = None,
    rule: RuleOpt = None,
    save: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Write the game record (JSON) here, after every action (a regular file)."),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="--save may replace a file that is not a game record, or write through a link."),
    ] = False,
    load: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--load", metavar="RECORD", help="Resume the game of a saved record (its rules, seed and seats)."),
    ] = None,
) -> None:
    """Play in the terminal against AI players.

    At the prompt type an action's number or its text, hint for the
    solver's advice, ? for every legal action, or quit. Ctrl-C saves the
    record (with --save) and stops.
    """
    from solver.engine import GAME_NAMES
    from solver.engine.players import make_player

    if game_name not in GAME_NAMES:
        bad_input(f"unknown game {game_name[:40]!r} (known: {', '.join(GAME_NAMES)})")
    _check_player(opponents)
    if load is not None:
        game, kinds, you, seed = _resumed(load, game_name, opponents, (players, preset, rule))
    else:
        game, kinds, you = _fresh(game_name, _rules_arg(preset, rule), players, seed, opponents)
    n = game.num_players
    try:
        ai = [make_player(kinds[q] if kinds[q] != "you" else opponents, seed * 1000 + q) for q in range(n)]
    except ShanghaiError as exc:
        bad_input(str(exc))
    recorder = _Recorder(save, kinds, force, game_name)
    recorder.write(game)
    try:
        _loop(game, ai, you, recorder)
    except KeyboardInterrupt:  # Ctrl-C: the record is saved first, then cli.main says "interrupted"
        recorder.write(game)
        if save is not None:
            say(err, f"game record written to {save}")
        raise
    except Exception as exc:  # a bug in a game or a player: say so in one line; the record is saved
        error(f"the game stopped at action {len(game.history) + 1}: {type(exc).__name__}: {exc}")
        raise typer.Exit(EXIT_FAIL) from None
    if save is not None:
        say(err, f"game record written to {save}")
    if game.is_terminal():
        say(out, f"game over: scores {game.scores()}, winners {game.winners()}")


def _check_player(kind: str) -> None:
    """A player kind as ``selfplay --players`` takes it (``ismcts:200`` too); bad input exits 2."""
    from solver.engine.players import PLAYER_KINDS, make_player

    try:
        make_player(kind)
    except ShanghaiError as exc:
        if kind.startswith("ismcts:"):  # a known kind with a bad budget or rollout: say which
            bad_input(f"player {kind[:40]!r}: {exc}")
        bad_input(f"unknown player {kind[:40]!r} (known: {', '.join(PLAYER_KINDS)}; ismcts:BUDGET[:ROLLOUT])")


def _fresh(
    game_name: str, rules: dict[str, Any], players: int | None, seed: int, opponents: str
) -> tuple[Any, list[str], int]:
    """A new game, each seat's kind and the human's seat (0); bad input exits 2."""
    from solver.engine import new_game

    n = _players_for(game_name, rules, players)
    try:
        game = new_game(game_name, rules, n, seed)
    except ShanghaiError as exc:
        bad_input(str(exc))
    return game, ["you"] + [opponents] * (n - 1), 0


def _resumed(path: Path, game_name: str, opponents: str, fresh: tuple[Any, ...]) -> tuple[Any, list[str], int, int]:
    """``--load``: the replayed game, each seat's kind, the human's seat and the seed (bad input exits 2)."""
    from cli.records import load_game

    if any(v for v in fresh):
        bad_input("--load resumes a record with its own players and rules: drop --players, --preset and --rule")
    try:
        record, game = load_game(path)
    except ShanghaiError as exc:
        bad_input(str(exc))
    if record.game != game_name:
        bad_input(f"{path}: the record is a {record.game} game, not {game_name}")
    if game.is_terminal():
        bad_input(f"{path}: the game is over; there is nothing to resume")
    kinds = list(record.players) if len(record.players) == record.num_players else []
    you = kinds.index("you") if "you" in kinds else 0
    if not kinds:
        kinds = [opponents] * record.num_players
    kinds[you] = "you"
    return game, kinds, you, record.seed


def _loop(game: Any, ai: list[Any], you: int, recorder: _Recorder) -> None:
    """Turns until the game ends or the human stops."""
    while not game.is_terminal():
        p = game.current_player()
        marker = _hand_marker(game)
        action = ai[p].choose(game) if p != you else _human_turn(game, you)
        if action is None:
            error("stopped", label="quit")
            break
        game.apply(action)
        recorder.write(game)
        say(out, (f"{'you' if p == you else f'player {p}'}:", "dim"), f" {action}")
        if game.is_terminal() or _hand_marker(game) != marker:
            _hand_over(game)


def _selfplay_kinds(game_name: str, rules: Any, players: str | None) -> list[str]:
    """The player kind of each seat (``--players``, else solver then greedy), each one checked."""
    from solver.engine.players import PLAYER_KINDS, make_player

    if players is None:
        players = ",".join(["solver"] + ["greedy"] * (_players_for(game_name, rules, None) - 1))
    kinds = [k.strip() for k in players.split(",") if k.strip()]
    for k in kinds:
        try:
            make_player(k)
        except ShanghaiError as exc:
            if k.startswith("ismcts:"):  # a known kind with a bad budget or rollout: say which
                bad_input(f"player {k[:40]!r}: {exc}")
            bad_input(f"unknown player {k[:40]!r} (known: {', '.join(PLAYER_KINDS)}; ismcts:BUDGET[:ROLLOUT])")
    return kinds


def _print_selfplay(title: str, summary: dict[str, Any], workers: int) -> None:
    """The self-play summary as a table of players and one line of totals."""
    from rich.table import Table  # imported by the command that prints it, not by every command

    table = Table(title=title)
    for col in ("player", "seats", "win rate", "95% CI", "mean score"):
        table.add_column(col, justify="right" if col != "player" else "left")
    for kind, row in summary["players"].items():
        lo, hi = row["ci95"]
        table.add_row(kind, str(row["seats"]), f"{row['win_rate']:.1%}", f"{lo:.1%}-{hi:.1%}", str(row["mean_score"]))
    out.print(table)
    say(
        out,
        f"mean length {summary['mean_actions']} actions; {summary['games_per_second']} games/s "
        f"({plural(workers, 'worker')}, {summary['seconds']} s)",
    )


def selfplay_cmd(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help=choices.GAME_HELP, autocompletion=choices.complete_game)
    ],
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games.")] = 100,
    players: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            help="Comma-separated player kinds, one per seat: "
            + choices.PLAYER_HELP
            + " [default: solver then greedy, 4 seats or what the rules need].",
            autocompletion=choices.complete_players,
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game (then +1 per game).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    preset: PresetOpt = None,
    rule: RuleOpt = None,
    hands: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, help="Hands (zsy, manipulation) or rounds (contract) per game."),
    ] = None,
    check: Annotated[bool, typer.Option(help="Verify that no card is created or lost after every action.")] = False,
    ray: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run the games as Ray tasks: 'local' starts a local Ray with --workers CPUs; "
            "an address (auto, ray://host:10001) joins a cluster. Needs the [ray] extra.",
        ),
    ] = None,
    json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Self-play: win rates with 95% confidence intervals, mean scores, game length, games per second."""
    from solver.engine import GAME_NAMES
    from solver.engine.selfplay import selfplay

    if game_name not in GAME_NAMES:
        bad_input(f"unknown game {game_name[:40]!r} (known: {', '.join(GAME_NAMES)})")
    if ray is not None:
        try:
            import ray as _ray  # noqa: F401
        except ImportError:
            bad_input("--ray needs Ray: pip install 'shanghai[ray]'")
    rules = _rules_arg(preset, rule)
    kinds = _selfplay_kinds(game_name, rules, players)
    options: dict[str, Any] = {}
    if hands is not None:
        options["max_rounds" if game_name == "contract" else "max_hands"] = hands
    try:
        from solver.engine import new_game

        new_game(game_name, rules, len(kinds), seed, **options)
    except ShanghaiError as exc:
        bad_input(str(exc))
    with progress_bar(quiet) as bar:
        task = bar.add_task(f"{game_name} self-play", total=games)
        stats = selfplay(
            game_name,
            games,
            kinds,
            seed=seed,
            workers=workers,
            rules=rules,
            options=options,
            check=check,
            progress=lambda _r: bar.advance(task),
            ray=ray,
        )
    summary = stats.summary()
    if json:
        emit_json(summary)
    else:
        _print_selfplay(f"{game_name}: {stats.games} games, players {','.join(kinds)}", summary, workers)
    for e in stats.errors[:5]:
        error(str(e) or "a game failed (no message)")
    if stats.errors:
        raise typer.Exit(EXIT_FAIL)
