"""``shanghai hint``, ``shanghai play`` and ``shanghai selfplay``: thin shells over :mod:`solver.engine`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cli.common import EXIT_FAIL, bad_input, cards_markup, emit_json, err, out
from solver.cards import Cards
from solver.errors import IllegalActionError, ShanghaiError

__all__ = ["hint", "play", "selfplay_cmd"]

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine output: one JSON object on stdout.")]


def _rules_arg(preset: str | None, rule: list[str] | None) -> dict[str, Any]:
    from cli.main import _parse_rule_overrides

    return _parse_rule_overrides(preset, rule or [])


def hint(
    file: Annotated[Path, typer.Argument(help="A game record (.json) or a puzzle file (.toml).")],
    json: JsonOpt = False,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.01, help="Seconds per solver question.")] = 10.0,
    player: Annotated[
        str, typer.Option("--player", help="Who answers a game record: solver, greedy, ismcts or ismcts:BUDGET.")
    ] = "solver",
) -> None:
    """The best action for the player to move, and why.

    A game record is replayed and the solver player's choice shown; a puzzle
    file's position is answered directly.
    """
    from solver.engine import replay
    from solver.engine.base import GameRecord
    from solver.engine.hints import hint_for_game, hint_for_puzzle
    from solver.puzzles import load

    try:
        if file.suffix == ".json":
            try:
                text = file.read_text(encoding="utf-8")
            except OSError as exc:
                bad_input(f"{file}: cannot read: {exc.strerror}")
            game = replay(GameRecord.from_json(text, str(file)))
            if game.is_terminal():
                bad_input(f"{file}: the game is over; there is nothing to hint")
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
        out.print(f"[bold]player {data['player']}:[/] {data['action']}")
        out.print(f"  [dim]why:[/] {decision.reason}")


def _show(game: Any, player: int) -> None:
    obs = game.observation(player)
    head = f"[bold]{game.GAME}[/]  scores {obs['scores']}"
    if "round" in obs:
        head += f"  round {obs['round']} ({obs['contract']})"
    out.print(head)
    for i, meld in enumerate(obs.get("table", [])):
        text = meld["cards"] if isinstance(meld, dict) else meld
        owner = f" [dim]p{meld['owner']}[/]" if isinstance(meld, dict) else ""
        out.print(f"  \\[{i}]{owner} {_meld_text(text)}")
    if obs.get("trick"):
        out.print(f"  trick: {obs['trick']} [dim](player {obs['trick_player']})[/]")
    if obs.get("discard"):
        out.print(f"  discard: {cards_markup(Cards.parse(obs['discard']))}")
    sizes = ", ".join(f"p{q}: {n}" for q, n in enumerate(obs["hand_sizes"]))
    out.print(f"  cards in hand: {sizes}")
    out.print(f"  your hand: {cards_markup(Cards.parse(obs['hand']))}")


def _meld_text(text: str) -> str:
    from cli.common import meld_markup
    from solver.melds import Meld

    return meld_markup(Meld.parse(text))


def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="manipulation, contract or zsy.")],
    players: Annotated[int, typer.Option("--players", "-n", help="Number of players (you are player 0).")] = 4,
    opponents: Annotated[str, typer.Option(help="AI kind of the other seats: random, greedy or solver.")] = "solver",
    seed: Annotated[int, typer.Option(help="Deal seed.")] = 0,
    preset: Annotated[Optional[str], typer.Option(help="Rule preset.")] = None,  # noqa: UP045
    rule: Annotated[Optional[list[str]], typer.Option("--rule", help="Rule option KEY=VALUE (repeatable).")] = None,  # noqa: UP045
    save: Annotated[Optional[Path], typer.Option(help="Write the game record (JSON) here when you stop.")] = None,  # noqa: UP045
) -> None:
    """Play in the terminal against AI players.

    At the prompt type an action's number or its text, ``hint`` for the
    solver's advice, ``help`` for the list, or ``quit``.
    """
    from solver.engine import new_game
    from solver.engine.hints import hint_for_game
    from solver.engine.players import make_player

    try:
        game = new_game(game_name, _rules_arg(preset, rule), players, seed)
        ai = [make_player(opponents, seed * 1000 + i) for i in range(players)]
    except ShanghaiError as exc:
        bad_input(str(exc))
    you = 0
    try:
        while not game.is_terminal():
            p = game.current_player()
            if p != you:
                action = ai[p].choose(game)
                game.apply(action)
                err.print(f"[dim]player {p}:[/] {action}")
                continue
            _show(game, you)
            legal = game.legal_actions()
            for i, a in enumerate(legal):
                out.print(f"  {i:>3}  {a}")
            while True:
                try:
                    text = input("your move> ").strip()
                except EOFError:
                    text = "quit"
                if text in ("quit", "q", "exit"):
                    raise KeyboardInterrupt
                if text in ("help", "?", ""):
                    for i, a in enumerate(legal):
                        out.print(f"  {i:>3}  {a}")
                    continue
                if text == "hint":
                    d = hint_for_game(game)
                    out.print(f"[green]hint:[/] {d.action}  [dim]({d.reason})[/]")
                    continue
                try:
                    action = legal[int(text)] if text.isdigit() else game.parse_action(text)
                    game.apply(action)
                    break
                except IndexError:
                    err.print(f"[red]no action number {text}[/] (0-{len(legal) - 1})")
                except IllegalActionError as exc:
                    err.print(f"[red]illegal:[/] {exc}")
    except KeyboardInterrupt:
        err.print("stopped")
    finally:
        if save is not None:
            save.write_text(game.record([("you" if q == you else opponents) for q in range(players)]).to_json())
            err.print(f"game record written to {save}")
    if game.is_terminal():
        out.print(f"game over: scores {game.scores()}, winners {game.winners()}")


def selfplay_cmd(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="manipulation, contract or zsy.")],
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games.")] = 100,
    players: Annotated[
        str, typer.Option(help="Comma-separated player kinds, one per seat.")
    ] = "solver,greedy,greedy,greedy",
    seed: Annotated[int, typer.Option(help="Seed of the first game (then +1 per game).")] = 0,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    preset: Annotated[Optional[str], typer.Option(help="Rule preset.")] = None,  # noqa: UP045
    rule: Annotated[Optional[list[str]], typer.Option("--rule", help="Rule option KEY=VALUE (repeatable).")] = None,  # noqa: UP045
    hands: Annotated[int | None, typer.Option(help="Hands (zsy, manipulation) or rounds (contract) per game.")] = None,
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
) -> None:
    """Self-play: win rates with 95% confidence intervals, mean scores, game length, games per second."""
    from solver.engine import GAME_NAMES
    from solver.engine.players import PLAYER_KINDS, make_player
    from solver.engine.selfplay import selfplay

    if game_name not in GAME_NAMES:
        bad_input(f"unknown game {game_name!r} (known: {', '.join(GAME_NAMES)})")
    if ray is not None:
        try:
            import ray as _ray  # noqa: F401
        except ImportError:
            bad_input("--ray needs Ray: pip install 'shanghai[ray]'")
    kinds = [k.strip() for k in players.split(",") if k.strip()]
    for k in kinds:
        try:
            make_player(k)
        except ShanghaiError:
            bad_input(f"unknown player {k!r} (known: {', '.join(PLAYER_KINDS)}; ismcts:BUDGET[:ROLLOUT])")
    options: dict[str, Any] = {}
    if hands is not None:
        options["max_rounds" if game_name == "contract" else "max_hands"] = hands
    rules = _rules_arg(preset, rule)
    try:
        from solver.engine import new_game

        new_game(game_name, rules, len(kinds), seed, **options)
    except ShanghaiError as exc:
        bad_input(str(exc))
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
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
        table = Table(title=f"{game_name}: {stats.games} games, players {','.join(kinds)}")
        for col in ("player", "seats", "win rate", "95% CI", "mean score"):
            table.add_column(col, justify="right" if col != "player" else "left")
        for kind, row in summary["players"].items():
            lo, hi = row["ci95"]
            table.add_row(
                kind, str(row["seats"]), f"{row['win_rate']:.1%}", f"{lo:.1%}-{hi:.1%}", str(row["mean_score"])
            )
        out.print(table)
        out.print(
            f"mean length {summary['mean_actions']} actions; {summary['games_per_second']} games/s "
            f"({workers} worker(s), {summary['seconds']} s)"
        )
    for e in stats.errors[:5]:
        err.print(f"[red]error:[/] {e}")
    if stats.errors:
        raise typer.Exit(EXIT_FAIL)
