

def test_each_model_answers_the_laydown() -> None:
    puzzle = load(EXAMPLE)
    # the greedy player lays down its first grouping (the kings: fewest points left); the others plan the turn
    assert misses(puzzle) == {"greedy": True, "no-swap": False, "glance": False, "solver": False}
    assert contract_lay_down("greedy", puzzle.rules, puzzle.position)  # type: ignore[arg-type]
    greedy = contract_lay_down("greedy", puzzle.rules, puzzle.position)  # type: ignore[arg-type]
    assert grouping(greedy) == ("6C 7C 8C 9C", "KH KD KC")
    # the glance model sees only the melds the hand touches: without the kings' set the plan is the naive one
    far = Puzzle(
        puzzle.game,
        puzzle.rules,
        ContractPosition(1, puzzle.position.hand, (TableMeld(Meld.parse("9S 10S JS QS"), 1),)),
        puzzle.title,
        {},
        "",
        puzzle.meta,
    )
    assert misses(far)["glance"] is True and misses(far)["solver"] is True
