"""Hashes of seeded games and analyses: behaviour identical before and after a refactor.

    python tools/seeded_hashes.py [GAMES]        (default 5 games per edition and bot mix)

Plays GAMES seeded games per edition (USA, 1910, Big Cities, Mega, Europe, Rails & Sails, Great
Lakes) and per mix of random, greedy and playout bots (7 x 4 x 5 = 140 games by default), hashing
every move, the final position (``GameState.to_dict``) and the scores; then a seeded
``ticket_odds`` and ``advise`` at six positions.  Prints one line per edition and mix and the
totals.  It uses only the public API, so the same file runs on the checkout before a change
(``PYTHONPATH=/path/to/old/checkout python tools/seeded_hashes.py``) and after.
"""

from __future__ import annotations

import hashlib
import json
import sys

import ttr_lab
from ttr_lab.analysis import advise, ticket_odds
from ttr_lab.bots import make_bot

EDITIONS = ["usa", "1910", "big_cities", "mega", "europe", "rails_and_sails", "great_lakes"]
MIXES = [("random", "random"), ("greedy", "random", "greedy"), ("playout", "greedy"), ("random", "playout", "random")]


def games(per_mix: int) -> str:
    total = hashlib.sha256()
    n = 0
    for edition in EDITIONS:
        for mix in MIXES:
            h = hashlib.sha256()
            for seed in range(per_mix):
                game = ttr_lab.new_game(edition, players=len(mix), seed=seed)
                bots = [make_bot(name, seed=seed * 10 + i) for i, name in enumerate(mix)]
                plies = 0
                while not game.is_over and plies < 5000:
                    p = game.current_player
                    move = bots[p].choose(game.view(p))
                    h.update(str(move).encode())
                    game.play(move)
                    plies += 1
                h.update(json.dumps(game.to_dict(), sort_keys=True).encode())
                h.update(repr(list(game.outcome().scores)).encode())
                n += 1
            total.update(h.digest())
            print(edition, "+".join(mix), h.hexdigest()[:16], flush=True)
    return f"games {n} total {total.hexdigest()}"


def analyses() -> str:
    a = hashlib.sha256()
    for edition in ("usa", "europe", "rails_and_sails"):
        for seed in range(2):
            game = ttr_lab.new_game(edition, players=3, seed=seed)
            bots = [make_bot("greedy", seed=i) for i in range(3)]
            for _ in range(40):
                if game.is_over:
                    break
                p = game.current_player
                game.play(bots[p].choose(game.view(p)))
            view = game.view(game.current_player)
            a.update(repr(ticket_odds(view, playouts=40, seed=seed)).encode())
            adv = advise(view, playouts=24, seed=seed, seconds=60)
            moves = [(str(m.move), m.win_probability, m.interval, m.expected_score, m.playouts) for m in adv.moves]
            a.update(repr((adv.player, adv.win_probabilities, adv.expected_scores, adv.playouts, moves)).encode())
    return f"analyses 6 total {a.hexdigest()}"


if __name__ == "__main__":
    print(games(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
    print(analyses())
