"""Voids, cheat marks and bans from ranked play as staff actions (``moderation/fair_play.py``,
``sanctions.rank_bar``): who may, what is refused (and changes nothing), what the audit log
keeps, and that a player banned from ranked play is never rated, queue or not."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection, insert, select
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.league import fairplay, on_match_finished
from cardroom.league.models import Account, Rating, Result
from cardroom.moderation import audit, fair_play, sanctions
from cardroom.moderation.staff import ADMIN, COMMAND_LINE, MODERATOR, Actor, ModerationError
from cardroom.store.database import migrate, open_engine

from .conftest import add_player
from .test_voiding import CHAIN, START, build, count, forget, league_of, reference

LATER = START + timedelta(days=1)


def staff(conn: Connection, player_id: str, role: str) -> Actor:
    """An account of ``role`` (guests hold no role)."""
    if conn.scalar(select(Account.player_id).where(Account.player_id == player_id)) is None:
        add_player(conn, player_id)
        conn.execute(
            insert(Account).values(
                player_id=player_id, name_key=player_id, password_hash="x", role=role
            )
        )
    return Actor(player_id, player_id.removeprefix("p_").title(), role)


def refused(status: int, code: str, work: object) -> None:
    assert callable(work)
    with pytest.raises(ModerationError) as caught:
        work()
    assert (caught.value.status, caught.value.code) == (status, code), caught.value.message


def actions(conn: Connection) -> list[tuple[str, str]]:
    return [(e["action"], e["target"]) for e in reversed(audit.entries(conn, limit=200))]


def test_a_moderator_voids_and_restores_a_match_and_the_log_keeps_both(conn) -> None:
    ids = build(conn, CHAIN)
    expected = reference(conn, ids, {"m_002"})
    forget(conn)
    count(conn, ids)
    counted = league_of(conn)
    mod = staff(conn, "p_mod", MODERATOR)
    done = fair_play.void(conn, mod, "m_002", "a fixed deal, reported twice", LATER)
    assert done["voided"] and done["matches"] == ["m_002"] and done["replayed"] == 2
    assert league_of(conn) == expected and fairplay.is_void(conn, "m_002")
    refused(409, "already_voided", lambda: fair_play.void(conn, mod, "m_002", "again", LATER))
    fair_play.unvoid(conn, mod, "m_002", "the report was wrong", LATER)
    assert league_of(conn) == counted and not fairplay.is_void(conn, "m_002")
    assert actions(conn) == [("void_match", "match:m_002"), ("unvoid_match", "match:m_002")]
    entry = audit.entries(conn, limit=1)[0]
    assert entry["actor"] == {"id": "p_mod", "name": "Mod"}
    # restored, m_002 is rated again, then the two later matches it reaches
    assert entry["reason"] == "the report was wrong" and entry["details"]["replayed"] == 3


def test_a_player_may_neither_void_nor_mark_and_nothing_changes(conn) -> None:
    ids = build(conn, CHAIN)
    count(conn, ids)
    before = league_of(conn)
    eve = staff(conn, "p_eve", "player")
    refused(403, "forbidden", lambda: fair_play.void(conn, eve, "m_001", "i lost it", LATER))
    refused(403, "forbidden", lambda: fair_play.mark(conn, eve, "p_ada", "she wins", LATER))
    assert league_of(conn) == before and actions(conn) == []
    assert fairplay.mark_of(conn, "p_ada") is None


def test_unknown_matches_and_players_are_404_and_a_reason_is_needed(conn) -> None:
    count(conn, build(conn, CHAIN[:2]))
    mod = staff(conn, "p_mod", MODERATOR)
    refused(404, "not_found", lambda: fair_play.void(conn, mod, "m_none", "no match", LATER))
    refused(404, "not_found", lambda: fair_play.unvoid(conn, mod, "m_none", "no match", LATER))
    refused(404, "not_found", lambda: fair_play.mark(conn, mod, "p_none", "nobody", LATER))
    refused(400, "bad_request", lambda: fair_play.void(conn, mod, "m_000", " ", LATER))
    refused(409, "not_voided", lambda: fair_play.unvoid(conn, mod, "m_000", "not void", LATER))
    assert actions(conn) == []


def test_a_moderator_cannot_mark_an_admin_another_moderator_or_themself(conn) -> None:
    count(conn, build(conn, CHAIN[:3]))
    mod = staff(conn, "p_mod", MODERATOR)
    staff(conn, "p_boss", ADMIN)
    staff(conn, "p_other", MODERATOR)
    for target in ("p_boss", "p_other", "p_mod"):
        refused(403, "forbidden", lambda t=target: fair_play.mark(conn, mod, t, "cheats", LATER))
    done = fair_play.mark(conn, mod, "p_cy", "a second account feeding wins", LATER)
    assert done["marked"] and set(done["matches"]) == {"m_001", "m_002"}
    assert fairplay.mark_of(conn, "p_cy")["reason"] == "a second account feeding wins"
    refused(409, "already_marked", lambda: fair_play.mark(conn, mod, "p_cy", "again", LATER))
    fair_play.clear(conn, COMMAND_LINE, "p_cy", "appeal upheld", LATER)  # the operator
    assert fairplay.mark_of(conn, "p_cy") is None
    assert actions(conn) == [("mark_cheater", "p_cy"), ("clear_cheater", "p_cy")]


def test_a_player_banned_from_ranked_play_is_not_rated_at_a_ranked_table(conn) -> None:
    """A ranked match made by hand (not through the queue) is counted as casual while one
    of its people is banned from ranked play; the ban lifted, the next one is rated."""
    ids = build(conn, [("p_ada", "p_bea"), ("p_ada", "p_bea")])
    ban = sanctions.impose(conn, COMMAND_LINE, "p_ada", sanctions.RANK_BAN, "boosting", START)
    events = on_match_finished(conn, ids[0], barred=sanctions.rank_bar)
    unrated = [e["detail"] for e in events if e["kind"] == "unrated"]
    assert len(unrated) == 1 and unrated[0]["reason"] == "barred"
    assert unrated[0]["players"] == ["p_ada"] and "boosting" not in unrated[0]["message"]
    assert conn.scalar(select(Rating.subject).where(Rating.subject == "p_bea")) is None
    ranked = conn.scalars(select(Result.ranked).where(Result.match_id == ids[0])).all()
    assert ranked == [False, False]
    sanctions.lift(conn, COMMAND_LINE, ban["id"], "served", START)
    events = on_match_finished(conn, ids[1], barred=sanctions.rank_bar)
    assert not [e for e in events if e["kind"] == "unrated"]
    assert conn.scalar(select(Rating.matches).where(Rating.subject == "p_bea")) == 1


def test_the_command_line_voids_restores_marks_and_clears(tmp_path: Path) -> None:
    """``cardroom admin void`` / ``cheat`` on a database of its own, as an operator runs them."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    engine = open_engine(url)
    migrate(engine)
    with engine.begin() as conn:
        count(conn, build(conn, CHAIN[:3]))
    engine.dispose()

    def admin(*args: str) -> str:
        done = CliRunner().invoke(app, ["admin", *args, "--db", url])
        assert done.exit_code == 0, done.output
        return done.output

    assert "match m_002: voided; 0 rated matches replayed" in admin(
        "void", "m_002", "--reason", "a fixed deal"
    )
    assert "counts again" in admin("void", "m_002", "--lift", "--reason", "appeal upheld")
    assert "p_cy: marked as cheating; 2 matches" in admin("cheat", "p_cy", "--reason", "feeding")
    assert "mark cleared" in admin("cheat", "p_cy", "--lift", "--reason", "appeal upheld")
    refused = CliRunner().invoke(app, ["admin", "void", "m_none", "--reason", "what", "--db", url])
    assert refused.exit_code == 2 and "no match 'm_none'" in refused.output
    engine = open_engine(url)
    with engine.connect() as conn:
        assert [a for a, _ in actions(conn)] == [
            "void_match", "unvoid_match", "mark_cheater", "clear_cheater"
        ]  # fmt: skip
    engine.dispose()
