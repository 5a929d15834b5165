"""The book's payout examples ("les casinos payent") and the neutral-dice examples.

How the examples are read (the French text is the authority):

* Ties: "chaque joueur concerné remet tous ses dés" - every group of players with the same
  count is removed, not only a tie for first.
* Example 2 of the notes ("Benno reçoit le billet de $40,000") cannot be the Golden Nugget of
  the tie Example 2 as written (Anna & Carla 2 each, Benno & Denny 1 each: Benno is tied with
  Denny and is removed). It must describe a picture we do not have, where Benno's single die
  is alone after Anna & Carla's tie is removed. We test both: the tie example as written
  (nobody is paid, every note goes under the pile) and the payout as pictured (Benno alone
  after the tie, he takes the $40,000; the other note, here $10,000, goes under the pile).
"""

from __future__ import annotations

from games.engines.vegas import ENGINE, Place
from games.engines.vegas.rules import WHITE, pay_casino
from tests.engines.vegas.helpers import (
    ANNA,
    BENNO,
    CARLA,
    DENNY,
    NAMES,
    empty_hand,
    put_dice,
    rolls,
    set_notes,
    set_roll,
    sound,
    start,
)


class TestTheBookExamples:
    def test_example_1_benno_and_carla_tie_anna_and_denny_are_paid(self) -> None:
        payout = pay_casino([10_000, 30_000, 80_000], {ANNA: 5, BENNO: 3, CARLA: 3, DENNY: 1})
        assert set(payout.removed) == {BENNO, CARLA}
        assert payout.awards == ((ANNA, 80_000), (DENNY, 30_000))
        assert payout.unclaimed == (10_000,)

    def test_example_2_golden_nugget_as_written_pays_nobody(self) -> None:
        payout = pay_casino([40_000, 10_000], {ANNA: 2, BENNO: 1, CARLA: 2, DENNY: 1})
        assert set(payout.removed) == {ANNA, BENNO, CARLA, DENNY}
        assert payout.awards == ()
        assert payout.unclaimed == (40_000, 10_000)

    def test_example_2_of_the_notes_benno_alone_after_the_tie_takes_40000(self) -> None:
        payout = pay_casino([40_000, 10_000], {ANNA: 2, BENNO: 1, CARLA: 2})
        assert set(payout.removed) == {ANNA, CARLA}
        assert payout.awards == ((BENNO, 40_000),)
        assert payout.unclaimed == (10_000,)

    def test_example_3_carla_70000_benno_20000_denny_nothing(self) -> None:
        payout = pay_casino([20_000, 70_000], {BENNO: 2, CARLA: 3, DENNY: 1})
        assert payout.removed == ()
        assert payout.awards == ((CARLA, 70_000), (BENNO, 20_000))
        assert DENNY not in dict(payout.awards)
        assert payout.unclaimed == ()

    def test_a_tie_below_the_top_is_removed_too(self) -> None:
        payout = pay_casino([20_000, 30_000], {ANNA: 4, BENNO: 2, CARLA: 2, DENNY: 1})
        assert payout.awards == ((ANNA, 30_000), (DENNY, 20_000))

    def test_an_empty_casino_returns_all_its_notes(self) -> None:
        payout = pay_casino([50_000], {ANNA: 0, BENNO: 0})
        assert payout == pay_casino([50_000], {})
        assert payout.unclaimed == (50_000,)


class TestTheNeutralDiceExamples:
    def test_example_1_white_takes_80000_back_under_the_pile_benno_30000(self) -> None:
        payout = pay_casino([30_000, 80_000], {BENNO: 2, WHITE: 3})
        assert payout.awards == ((WHITE, 80_000), (BENNO, 30_000))

    def test_example_2_carla_70000_white_40000_anna_nothing(self) -> None:
        payout = pay_casino([40_000, 70_000], {ANNA: 1, CARLA: 3, WHITE: 2})
        assert payout.awards == ((CARLA, 70_000), (WHITE, 40_000))
        assert ANNA not in dict(payout.awards)

    def test_white_ties_like_a_player(self) -> None:
        payout = pay_casino([40_000, 70_000], {ANNA: 2, CARLA: 1, WHITE: 2})
        assert set(payout.removed) == {ANNA, WHITE}
        assert payout.awards == ((CARLA, 70_000),)


def _end_of_round_with_example_1() -> dict:
    """Round 1, four players: casino 1 is the Caesars Palace of Example 1, Denny's last die
    (a 1) is the last die of the round."""
    state = start(4)
    set_notes(state, 1, [10_000, 30_000, 80_000])
    set_notes(state, 4, [20_000, 70_000])  # Example 3 at casino 4
    put_dice(state, 1, ANNA, 5)
    put_dice(state, 1, BENNO, 3)
    put_dice(state, 1, CARLA, 3)
    put_dice(state, 4, CARLA, 3)
    put_dice(state, 4, BENNO, 2)
    put_dice(state, 4, DENNY, 1)
    for seat in (ANNA, BENNO, CARLA):
        empty_hand(state, seat, casino=2)
    return sound(set_roll(state, DENNY, [1]))


class TestAPayoutThroughTheEngine:
    def test_the_last_die_pays_every_casino_and_starts_round_2(self) -> None:
        state = _end_of_round_with_example_1()
        pile_before = list(state["pile"])
        after, events = ENGINE.apply(state, DENNY, Place(1), rng=rolls(*[2] * 8))
        sound(after)
        taken = [(e["seat"], e["casino"], e["value"]) for e in events if e["type"] == "note_taken"]
        assert (ANNA, 1, 80_000) in taken
        assert (DENNY, 1, 30_000) in taken
        assert (CARLA, 4, 70_000) in taken and (BENNO, 4, 20_000) in taken
        assert not [t for t in taken if t[0] == DENNY and t[1] == 4]
        returned = [e for e in events if e["type"] == "notes_returned"]
        assert returned[0] == {
            "type": "notes_returned",
            "casino": 1,
            "white": [],
            "unclaimed": [10_000],
        }
        # the $10,000 went under the pile first, then round 2 was dealt from the top
        under = [v for e in returned for v in e["unclaimed"] + e["white"]]
        dealt = [v for e in events if e["type"] == "deal" for v in e["notes"]]
        assert (pile_before + under)[len(dealt) :] == after["pile"]
        assert after["round"] == 2 and after["start"] == BENNO and after["active"] == BENNO
        assert after["roll"] == {"own": [2] * 8, "white": []}
        assert after["won"][ANNA] == [80_000]  # Anna wins nothing elsewhere
        assert after["won"][DENNY][0] == 30_000  # casino 1 pays first

    def test_the_payout_is_described_in_sentences(self) -> None:
        state = _end_of_round_with_example_1()
        _, events = ENGINE.apply(state, DENNY, Place(1), rng=rolls(*[2] * 8))
        text = [str(ENGINE.describe(e, NAMES)) for e in events]
        assert "At casino 1, Benno and Carla tie and take their dice back empty-handed." in text
        assert "Anna takes the $80,000 note from casino 1." in text
        assert "Denny takes the $30,000 note from casino 1." in text
        assert "At casino 1, nobody takes $10,000: back under the pile." in text

    def test_white_notes_go_under_the_pile(self) -> None:
        state = start(4, "neutral")
        set_notes(state, 1, [30_000, 80_000])
        put_dice(state, 1, "white", 3)
        put_dice(state, 1, BENNO, 2)
        for seat in (ANNA, BENNO, CARLA):
            empty_hand(state, seat, casino=2)
        set_roll(state, DENNY, [3], [])
        sound(state)
        # Denny's own dice are all placed except the 3; his white dice went to casino 6
        after, events = ENGINE.apply(state, DENNY, Place(3), rng=rolls(*[5] * 10))
        sound(after)
        first = next(e for e in events if e["type"] == "notes_returned")
        assert first == {"type": "notes_returned", "casino": 1, "white": [80_000], "unclaimed": []}
        assert (BENNO, 1, 30_000) in [
            (e["seat"], e["casino"], e["value"]) for e in events if e["type"] == "note_taken"
        ]
        assert after["won"][BENNO][0] == 30_000
        assert str(ENGINE.describe(first, NAMES)) == (
            "At casino 1, White takes $80,000: back under the pile."
        )
