"""The analysis commands of the command line (ttr_lab.cli.analysis): advise,
odds and review on saved games, from one seat's fair view, and their errors."""

from __future__ import annotations

import re

import pytest

from ttr_lab.bots import make_bot, play_game
from ttr_lab.cli import main
from ttr_lab.records import Record, save_position


@pytest.fixture(scope="module")
def game():
    return play_game("usa", [make_bot("greedy", seed=1), make_bot("greedy", seed=2)], seed=3)


@pytest.fixture(scope="module")
def files(game, tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    full = d / "game.json"
    Record.from_state(game).save(full)
    seat1 = d / "seat1.json"
    Record.from_state(game, seat=1).save(seat1)
    pos = d / "pos.json"
    save_position(Record.from_state(game).replay(upto=40), pos)
    return {"full": str(full), "seat1": str(seat1), "pos": str(pos), "moves": len(game.move_stack)}


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def percents(line: str) -> float:
    return float(re.search(r"wins\s+([\d.]+)%", line).group(1))


def test_advise_prints_win_chances_and_ranked_moves(files, capsys):
    status, out, _ = run(capsys, "advise", files["full"], "--ply", "40", "--playouts", "40", "--top", "3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("From ") and "ply 40, 40 playouts" in lines[0]
    chances = [percents(x) for x in lines[1:3]]
    assert abs(sum(chances) - 100) < 0.2
    ranked = [x for x in lines if re.match(r"\d\. ", x)]
    assert [x[:2] for x in ranked] == ["1.", "2.", "3."]
    assert all(re.search(r": \d+% \(\d+-\d+%, \d+ playouts\)$", x) for x in ranked)
    # the same seed and playouts give the same advice
    assert run(capsys, "advise", files["full"], "--ply", "40", "--playouts", "40", "--top", "3")[1] == out


def test_advice_reads_only_the_seats_view(files, capsys):
    """The full record holds both hands; a seat record only what seat 1 saw:
    the advice from seat 1's view is the same from both."""
    args = ("--ply", "40", "--seat", "1", "--playouts", "30")
    _, from_full, _ = run(capsys, "advise", files["full"], *args)
    _, from_seat, _ = run(capsys, "advise", files["seat1"], *args)
    assert from_full == from_seat
    assert "seat 1)'s view" in from_full


def test_a_seat_by_name_is_that_seat(files, capsys, game):
    name = game.player_names[1].upper()  # any case
    by_number = run(capsys, "odds", files["full"], "--ply", "40", "--seat", "1")
    assert run(capsys, "odds", files["full"], "--ply", "40", "--seat", name) == by_number


def test_advise_a_seat_not_to_move_and_a_position(files, capsys, game):
    g = Record.from_state(game).replay(upto=40)
    other = 1 - g.current_player
    status, out, _ = run(capsys, "advise", files["full"], "--ply", "40", "--seat", str(other), "--playouts", "10")
    assert status == 0 and "is not to move" in out and not re.search(r"^\d\. ", out, re.M)
    status, out, _ = run(capsys, "advise", files["pos"], "--playouts", "10", "--seat", str(other))
    assert status == 0 and "the saved position" in out and "is not to move" in out
    assert abs(sum(percents(x) for x in out.splitlines()[1:3]) - 100) < 0.2


def test_odds_closed_form_and_simulated(files, capsys, game):
    status, out, _ = run(capsys, "odds", files["full"], "--ply", "40", "--seat", "0")
    assert status == 0
    g = Record.from_state(game).replay(upto=40)
    labels = [t.label() for t in g.tickets(0)]
    assert all(label in out for label in labels) and "simulated" not in out
    status, out, _ = run(capsys, "odds", files["full"], "--ply", "40", "--seat", "0", "--playouts", "12")
    rows = [x for x in out.splitlines() if any(x.strip().startswith(label + " ") for label in labels)]
    assert status == 0 and len(rows) == len(labels)
    for row in rows:
        lo, hi = map(int, re.search(r"\[(\d+), (\d+)\] of 12$", row).groups())
        assert 0 <= lo <= hi <= 100


def test_odds_before_any_ticket_is_kept(files, capsys):
    status, out, _ = run(capsys, "odds", files["full"], "--ply", "0", "--seat", "0")
    assert status == 0 and "holds no tickets yet" in out


def test_review_flags_and_counts(files, capsys):
    status, out, _ = run(
        capsys, "review", files["full"], "--playouts", "6", "--plies", "20-30", "--all", "--no-progress"
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[0].endswith("11 plies from each mover's own view, at 6 playouts a move")
    table = [x for x in lines if re.match(r"\s+\d+\s", x)]
    assert [int(x.split()[0]) for x in table] == list(range(20, 31))
    flagged = sum(1 for x in table if re.search(r"\b(inaccuracy|mistake|blunder)\b", x))
    totals = re.findall(r"(\d+) (?:inaccurac|mistake|blunder)", "\n".join(lines[-2:]))
    assert sum(map(int, totals)) == flagged
    # without --all only the flagged plies are listed
    _, short, _ = run(capsys, "review", files["full"], "--playouts", "6", "--plies", "20-30")
    assert len([x for x in short.splitlines() if re.match(r"\s+\d+\s", x)]) == flagged


def test_review_a_seat_record_from_its_seat(files, capsys):
    status, out, _ = run(capsys, "review", files["seat1"], "--playouts", "3", "--plies", "1-6", "--all")
    assert status == 0 and "plies from greedy 2 (seat 1)'s view" in out.splitlines()[0]
    assert re.search(r"^\s+\d+\s+greedy 1 \(seat 0\)\s+keep \?", out, re.M)  # seat 0's keep, unseen
    # a full record reviewed from seat 1 shows no more than seat 1 saw: the same lines
    _, full, _ = run(capsys, "review", files["full"], "--seat", "1", "--playouts", "3", "--plies", "1-6", "--all")
    assert full.splitlines()[1:] == out.splitlines()[1:]


def test_review_saves_every_column(files, capsys, tmp_path):
    import pandas as pd

    path = tmp_path / "review.csv"
    status, out, err = run(capsys, "review", files["full"], "--playouts", "3", "--plies", "5-9", "--save", str(path))
    assert status == 0 and out.endswith(f"saved to {path}\n")
    df = pd.read_csv(path)
    assert list(df["ply"]) == [5, 6, 7, 8, 9] and {"win_0", "win_1", "drop", "flag", "best"} <= set(df.columns)
    assert "review" in err  # the progress bar, on stderr
    # a review that fails leaves no file behind, not even a temporary one
    bad = tmp_path / "bad.csv"
    status, out, err = run(capsys, "review", files["full"], "--seconds-per-ply", "0", "--save", str(bad))
    assert status == 1 and "seconds_per_ply" in err and not bad.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["review.csv"]
    # a review saved again over the first: replaced by the whole new one
    before = path.read_bytes()
    status, out, _ = run(capsys, "review", files["full"], "--playouts", "3", "--plies", "5-6", "--save", str(path))
    assert status == 0 and path.read_bytes() != before and list(pd.read_csv(path)["ply"]) == [5, 6]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["review.csv"]


@pytest.fixture(scope="module")
def illegal_at_31(files, tmp_path_factory):
    """The full record with an illegal move at ply 31 (a keep while a card draw is under way)."""
    import json

    data = json.loads(open(files["full"], encoding="utf-8").read())
    assert data["moves"][29:31] == ["blind", "blind"]
    data["moves"][30] = "keep 1 2"
    path = tmp_path_factory.mktemp("bad") / "bad31.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ("validate",),
        ("replay",),
        ("advise", "--playouts", "4"),
        ("advise", "--ply", "10", "--playouts", "4"),
        ("odds", "--ply", "10"),
        ("review", "--playouts", "2", "--plies", "1-3", "--no-progress"),
        ("review", "--playouts", "2", "--plies", "1-3", "--seat", "1", "--no-progress"),
    ],
    ids=lambda a: " ".join(a),
)
def test_every_command_refuses_a_record_that_does_not_replay(illegal_at_31, capsys, args, tmp_path):
    """'review' exited 0 on it, and 'advise --ply 10' or 'odds --ply 10' looked
    only at the first 10 moves: every command now checks the whole record, the same way."""
    status, out, err = run(capsys, args[0], illegal_at_31, *args[1:])
    assert (status, out) == (1, "")
    assert (
        err
        == "error: ply 31 ('keep 1 2'): illegal move keep 1 2: a card draw is under way; expected a second card (rule A1)\n"
    )


def test_the_review_function_refuses_a_record_that_does_not_replay(illegal_at_31):
    from ttr_lab.analysis import review
    from ttr_lab.errors import RecordError

    with pytest.raises(RecordError, match=r"ply 31 \('keep 1 2'\): illegal move"):
        review(Record.load(illegal_at_31), playouts=1, plies=[1], progress=False)


@pytest.mark.parametrize(
    "args, message",
    [
        (("advise", "{full}", "--ply", "9999"), "the record has only"),
        (("advise", "{full}", "--ply", "-1"), "--ply is a number of moves"),
        (("advise", "{pos}", "--ply", "3"), "a position has no moves"),
        (("advise", "{full}", "--seat", "5"), "the game has seats 0 to 1"),
        (("advise", "{full}", "--ply", "40", "--playouts", "0"), "playout"),
        (("advise", "{full}"), "the game is over"),
        (("advise", "{seat1}", "--seat", "0", "--ply", "10"), "shows no other seat's view"),
        (("odds", "{full}", "--ply", "40", "--playouts", "0"), "playouts"),
        (("review", "{pos}"), "a position, not a game record"),
        (("review", "{full}", "--plies", "ten"), "--plies wants numbers"),
        (("review", "{full}", "--plies", "30-20"), "not a range of plies"),
        (("review", "{full}", "--plies", "9990-9999"), "the record has only"),
        (("review", "{full}", "--seat", "2"), "the game has seats 0 to 1"),
        (("review", "{seat1}", "--seat", "0"), "shows no other seat's view"),
        (("odds", "{full}", "--ply", "40", "--seat", "Zed"), "give a seat number or one player's name"),
        (("review", "{full}", "--save", "out.xlsx"), "writes a .csv file"),
        (("review", "{full}", "--playouts", "2", "--plies", "3", "--save", "/nonexistent/r.csv"), "cannot write"),
    ],
)
def test_bad_requests_fail_on_one_line(files, capsys, args, message):
    status, out, err = run(capsys, *(a.format(**files) for a in args))
    assert status == 1 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_replay_of_a_seat_record_scores_only_what_the_seat_knows(files, capsys, game):
    status, out, _ = run(capsys, "replay", files["seat1"])
    assert status == 0
    assert "seat record of greedy 2 (seat 1)" in out and "tickets and hands are unknown" in out
    own = {t.label() for t in game.tickets(1)}
    others = {t.label() for t in game.tickets(0)} - own
    assert own and all(label in out for label in own)
    assert not any(label in out for label in others)  # no invented breakdown of seat 0
    assert "Winner" not in out
    for p in range(2):  # the public route points
        assert f"{game.view(1).scores[p]} route points" in out
