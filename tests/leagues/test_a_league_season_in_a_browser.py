"""A whole league season, with the admin's steps in a real browser (issue 14).

Dee, an ordinary user (no staff access), creates a league on the site; six players join
and enter its season (through the services); Dee previews the tables and starts the season
in the browser, replaces a player by a substitute on a game's page and extends a deadline
there. The games then end by resignations in a fixed order (a bot plays each resigned
seat on; a game of three ends when one player is left unresigned), so every placing is
known, and the standings and ratings are checked against numbers worked out here by hand:

- standings: 3 players a game, so 1st 2 points, 2nd 1 point, 3rd 0;
- ratings: the openskill library's PlackettLuce() model, from its defaults (mu 25,
  sigma 25/3), rating each game's three players with ranks [1, 2, 3].
"""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from games import services
from games.models import Game
from leagues import ratings, selectors
from leagues import services as leagues
from leagues.models import League
from tests.web.test_in_a_browser import _missing, _sign_in, page  # noqa: F401

pytestmark = [pytest.mark.skipif(bool(_missing), reason=_missing), pytest.mark.slow]


def test_a_league_admin_runs_a_season_to_its_standings_and_ratings(
    transactional_db: Any,
    live_server: Any,
    page: Any,  # noqa: F811
    make_user: Any,
) -> None:
    dee = make_user("dee")
    assert not dee.is_staff
    base = live_server.url
    _sign_in(page, base, dee)

    # Dee creates the league on the site.
    page.goto(f"{base}/leagues/new/?game=vegas")  # the game first: its options follow
    page.fill("#id_name", "Desert Cup")
    page.select_option("#id_players_per_game", "3")
    page.click("#league-form button[type=submit]:not([name=change_game])")
    page.wait_for_url(f"{base}/leagues/desert-cup/manage/")
    league = League.objects.get(slug="desert-cup")
    assert (league.created_by, league.players_per_game) == (dee, 3)

    # Six players join and enter the season Dee opens.
    season = leagues.open_season(league=league, by=dee)
    players = [make_user(f"p{i}") for i in range(6)]
    for user in players:
        leagues.join_league(league=league, user=user)
        leagues.enter_season(season=season, user=user)

    # Dee previews the tables and starts the season.
    page.goto(f"{base}/leagues/desert-cup/seasons/1/")
    assert "6 players at 3 a table" in page.inner_text("#preview")
    page.click("#start-season")
    page.wait_for_load_state()
    games = [link.game for link in selectors.season_games(season=season)]
    assert len(games) == 2 and all(g.status == Game.Status.ACTIVE for g in games)
    first, second = (sorted(g.seats.select_related("user"), key=lambda s: s.order) for g in games)

    # On the second game's page, Dee replaces its first seat's player by a substitute...
    # (a member of the league, found by display name: never by address)
    sub = make_user("sub", display_name="Sub")
    leagues.join_league(league=league, user=sub)
    second_player_pk = second[0].user_id
    page.goto(f"{base}/games/{games[1].pk}/")
    page.select_option("#replace-seat", "0")
    page.fill("#replace-who", "Sub")
    page.fill("#replace-why", "p moved away")
    page.click("#tool-replace button[type=submit]")
    page.wait_for_load_state()
    second[0].refresh_from_db()
    assert second[0].user == sub
    # ... and gives the player on turn a day more.
    before = Game.objects.get(pk=games[1].pk).deadline
    page.fill("#extend-hours", "24")
    page.fill("#extend-why", "a holiday")
    page.click("#tool-extend button[type=submit]")
    page.wait_for_load_state()
    after = Game.objects.get(pk=games[1].pk).deadline
    assert before is not None and after is not None
    assert round((after - before).total_seconds() / 3600) == 24
    assert "a holiday" in page.inner_text("body")

    # The games end: the last seat resigns, then the middle one (bots play their seats on).
    for seats in (first, second):
        for seat in (seats[2], seats[1]):
            services.resign(game=seat.game_id, user=seat.user)
    assert all(Game.objects.get(pk=g.pk).status == Game.Status.FINISHED for g in games)
    leagues.finish_season(season=season, by=dee)

    # Standings by hand: 1st of each game 2 points (a win), 2nd 1, 3rd 0; the replaced
    # player played nothing (0 points in 0 games ranks above 0 points in 1 game).
    name = {u.pk: u.email.split("@")[0] for u in [*players, sub]}
    a0, a1, a2 = (name[s.user_id] for s in first)
    b1, b2 = name[second[1].user_id], name[second[2].user_id]
    top = sorted([(a0, 1, 1, 2.0), ("sub", 1, 1, 2.0)])
    mid = sorted([(a1, 1, 0, 1.0), (b1, 1, 0, 1.0)])
    low = sorted([(a2, 1, 0, 0.0), (b2, 1, 0, 0.0)])
    expected = [
        *[("=1", *row) for row in top],
        *[("=3", *row) for row in mid],
        ("5", name[second_player_pk], 0, 0, 0.0),
        *[("=6", *row) for row in low],
    ]
    table = selectors.season_standings(season=season)
    got = [
        (
            f"{'=' if line.shared else ''}{line.position}",
            name[line.user.pk],
            line.played,
            line.wins,
            line.points,
        )
        for line in table
    ]
    assert sorted(got[:2]) == expected[:2] and sorted(got[2:4]) == expected[2:4]
    assert got[4] == expected[4] and sorted(got[5:]) == expected[5:]

    # Ratings by hand, from openskill itself: each game's players start at the defaults.
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in range(3)]
    one, two, three = (team[0] for team in model.rate(fresh, ranks=[1, 2, 3]))
    want = {a0: one, "sub": one, a1: two, b1: two, a2: three, b2: three}
    rated = ratings.ratings("vegas")
    for pk, who in name.items():
        if who in want:
            assert round(rated[pk].mu, 6) == round(want[who].mu, 6), who
            assert round(rated[pk].sigma, 6) == round(want[who].sigma, 6), who
            assert rated[pk].provisional
        else:
            assert pk not in rated  # the replaced player has no rated game
    ordinal = round(one.mu - 3 * one.sigma, 2)

    # The league page and the leaderboard say the same.
    page.goto(f"{base}/leagues/desert-cup/?season=1")
    assert f"{ordinal:.2f}" in page.inner_text("#standings")
    page.goto(f"{base}/ratings/vegas/")
    assert f"{ordinal:.2f}" in page.inner_text("#provisional")
