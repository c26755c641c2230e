"""Regenerate ``sample-game.json``, the saved game analysed in notebooks 03, 04 and 06.

Three greedy bots (Ada, Bob and Cy) play a seeded game of Ticket to Ride USA;
the record is saved in the package, ``ttr_lab/records/samples/sample-game.json``
(package data: the lessons read it with ``ttr_lab.records.samples.load("sample-game")``,
so a notebook handed out alone still finds it).  The game, and so the file, is
the same byte for byte on every run::

    python notebooks/data/make_sample_game.py

>>> record = Record.load(SAMPLE)
>>> record.players, record.seed, record.replay().is_over
(['Ada', 'Bob', 'Cy'], 5, True)
"""

from __future__ import annotations

from pathlib import Path

import ttr_lab
from ttr_lab.bots import make_bot, play_game
from ttr_lab.records import Record

SEED = 5
PLAYERS = ["Ada", "Bob", "Cy"]
SAMPLE = Path(__file__).resolve().parents[2] / "ttr_lab" / "records" / "samples" / "sample-game.json"


def make_record() -> Record:
    """Play the sample game and return its record."""
    game = ttr_lab.new_game("usa", players=PLAYERS, seed=SEED)
    play_game(game, [make_bot("greedy", seed=seat + 1) for seat in range(len(PLAYERS))])
    headers = {
        "Event": "ttr_lab sample game",
        "Players": ", ".join(f"{name}: greedy bot (seed {seat + 1})" for seat, name in enumerate(PLAYERS)),
        "Source": "notebooks/data/make_sample_game.py",
    }
    return Record.from_state(game, headers=headers)


def main(path: Path = SAMPLE) -> None:
    record = make_record()
    record.save(path)
    print(f"wrote {path}: {len(record)} plies, scores {record.result['scores']}")


if __name__ == "__main__":
    main()
