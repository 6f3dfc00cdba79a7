"""``cardroom admin ...``: moderation on the server's database, from the machine it runs on.

The same functions as the console's routes (``cardroom.moderation``), acting as the operator
(``COMMAND_LINE``, an admin: whoever holds the database may do anything). Every action writes
its audit entry; each server process reads new entries within ``CARDROOM_MODERATION_POLL``
seconds and carries them out (a banned player's sockets closed, a table closed), at once when
the servers share Redis (``CARDROOM_REDIS_URL``: the command wakes them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from cardroom.commands.common import fail

if TYPE_CHECKING:  # the database is imported when a command runs: `cardroom` starts sooner
    from sqlalchemy import Connection, Engine

T = TypeVar("T")

admin = typer.Typer(
    help="Moderation on the server's database: roles, reports, sanctions, the audit log.",
    no_args_is_help=True,
)
DB_HELP = "Database URL; by default CARDROOM_DB_URL, as cardroom serve uses it."
Db = Annotated[str | None, typer.Option(help=DB_HELP, show_default=False)]
Reason = Annotated[str, typer.Option(help="Why (kept in the audit log; a sanction's is shown).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of lines.")]


def register(app: typer.Typer) -> None:
    app.add_typer(admin, name="admin")


def _engine(db: str | None) -> Engine:
    from cardroom.server.settings import Settings, SettingsError
    from cardroom.store.database import migrate, open_engine

    try:
        url = Settings.from_env(db_url=db).db_url
    except SettingsError as error:
        fail(str(error), label="bad setting")
    try:
        engine = open_engine(url)
        migrate(engine)
    except Exception as error:
        fail(f"the database {url} cannot be used: {error}", 1, label="failed")
    return engine


def _run(db: str | None, work: Callable[[Connection], T], wake: bool = False) -> T:
    """``work`` in one transaction; a refusal is one line (exit 2), nothing changed."""
    from cardroom.moderation.staff import ModerationError

    engine = _engine(db)
    try:
        with engine.begin() as conn:
            result = work(conn)
    except ModerationError as error:
        fail(error.message)
    finally:
        engine.dispose()
    if wake:
        _wake_servers()
    return result


def _wake_servers() -> None:
    """Servers sharing Redis hear of the new audit entry at once (else at their next poll)."""
    from cardroom.server.settings import Settings

    settings = Settings.from_env()
    if not settings.redis_url:
        return
    import redis

    try:
        client = redis.Redis.from_url(settings.redis_url)
        message = {"kind": "moderation", "message": {}}
        client.publish(f"{settings.redis_prefix}everyone", json.dumps(message))
        client.close()
    except redis.RedisError as error:  # the entry is written; the servers' poll finds it
        typer.echo(f"note: Redis did not answer ({error}); the servers poll the log", err=True)


def _player(conn: Connection, name: str) -> str:
    from cardroom.moderation.players import find_one

    return find_one(conn, name)


def _now() -> datetime:
    return datetime.now(UTC)


def _print(data: Any, as_json: bool, lines: Callable[[Any], list[str]]) -> None:
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for line in lines(data):
        typer.echo(line)


@admin.command("grant")
def grant_command(
    name: Annotated[str, typer.Argument(help="An account's name (or a p_… id).")],
    role: Annotated[str, typer.Argument(help="admin, moderator or player.")],
    reason: Reason = "granted on the command line",
    db: Db = None,
) -> None:
    """Give an account a role: the first admin is made this way."""
    from cardroom.moderation.roles import grant
    from cardroom.moderation.staff import COMMAND_LINE

    done = _run(
        db, lambda c: grant(c, COMMAND_LINE, _player(c, name), role, reason, _now()), wake=True
    )
    typer.echo(f"{done['player']['name']} ({done['player']['id']}): {done['before']} -> {role}")


@admin.command("audit")
def audit_command(
    limit: Annotated[int, typer.Option(help="Entries to show, newest first.")] = 50,
    target: Annotated[str | None, typer.Option(help="Only about this id.")] = None,
    as_json: Json = False,
    db: Db = None,
) -> None:
    """The audit log: every moderator's and admin's action, newest first."""
    from cardroom.moderation.audit import entries

    found = _run(db, lambda c: entries(c, limit=limit, target=target))

    def lines(rows: list[dict[str, Any]]) -> list[str]:
        return [
            f"#{e['id']} {e['at'][:19]} {e['actor']['name']}: {e['action']} {e['target']}"
            f"{_detail(e)} — {e['reason']}"
            for e in rows
        ] or ["(the audit log is empty)"]

    _print(found, as_json, lines)


def _detail(entry: dict[str, Any]) -> str:
    d = entry["details"]
    if entry["action"] == "sanction":
        until = f" until {d['until'][:16]}" if d.get("until") else ""
        return f" ({d.get('kind')}{until}, sanction {d.get('id')})"
    if entry["action"] == "grant":
        return f" ({d.get('before')} -> {d.get('role')})"
    if entry["action"] in ("report", "lift"):
        return f" ({d.get('status') or 'sanction ' + str(d.get('id'))})"
    return ""


@admin.command("reports")
def reports_command(
    status: Annotated[str, typer.Option(help="open, handled, dismissed or all.")] = "open",
    as_json: Json = False,
    db: Db = None,
) -> None:
    """The reports queue (open ones oldest first)."""
    from cardroom.moderation.reports import queue

    found = _run(db, lambda c: queue(c, status))

    def lines(rows: list[dict[str, Any]]) -> list[str]:
        out = []
        for r in rows:
            where = f" at {r['table']}" if r["table"] else f" in {r['match']}" if r["match"] else ""
            out.append(
                f"report {r['id']} [{r['status']}] {r['created_at'][:16]}: "
                f"{r['reporter']['name']} reports {r['target']['name']} ({r['target']['id']}) "
                f"for {r['reason']}{where}{': ' + r['note'] if r['note'] else ''}"
            )
            out += [f"    {q['from']['name']}: {q['text']}" for q in r["context"].get("chat", [])]
        return out or [f"(no {status} reports)"]

    _print(found, as_json, lines)


@admin.command("handle")
def handle_command(
    report: Annotated[int, typer.Argument(help="The report's number.")],
    outcome: Annotated[str, typer.Option(help="What was done about it (or why nothing).")],
    dismiss: Annotated[bool, typer.Option("--dismiss", help="Dismiss it instead.")] = False,
    db: Db = None,
) -> None:
    """Close a report: handled (with the action taken) or dismissed."""
    from cardroom.moderation.reports import DISMISSED, HANDLED, resolve
    from cardroom.moderation.staff import COMMAND_LINE

    status = DISMISSED if dismiss else HANDLED
    done = _run(db, lambda c: resolve(c, COMMAND_LINE, report, status, outcome, _now()), True)
    typer.echo(f"report {done['id']}: {done['status']} — {done['outcome']}")


@admin.command("sanction")
def sanction_command(
    name: Annotated[str, typer.Argument(help="The player's name or p_… id.")],
    kind: Annotated[str, typer.Argument(help="warn, mute, rank_ban, ban or rename.")],
    reason: Annotated[str, typer.Option(help="Why: the player is told it.")],
    minutes: Annotated[
        float | None, typer.Option(help="How long (a mute needs it); none: until lifted.")
    ] = None,
    new_name: Annotated[str | None, typer.Option("--name", help="A rename's new name.")] = None,
    db: Db = None,
) -> None:
    """Sanction a player; the servers carry it out (a ban closes their sockets)."""
    from cardroom.moderation.sanctions import impose
    from cardroom.moderation.staff import COMMAND_LINE
    from cardroom.server.auth import clean_name
    from cardroom.tables.errors import Refusal

    try:
        cleaned = clean_name(new_name) if new_name is not None else None
    except Refusal as error:
        fail(error.message)

    def work(conn: Connection) -> dict[str, Any]:
        player = _player(conn, name)
        return impose(
            conn, COMMAND_LINE, player, kind, reason, _now(), minutes=minutes, new_name=cleaned
        )

    done = _run(db, work, wake=True)
    typer.echo(
        f"sanction {done['id']}: {done['player']} {done['words']}"
        f"{' until ' + done['until'] if done['until'] else ''} — {done['reason']}"
    )


@admin.command("lift")
def lift_command(
    sanction: Annotated[int, typer.Argument(help="The sanction's number.")],
    reason: Annotated[str, typer.Option(help="Why it ends now.")],
    db: Db = None,
) -> None:
    """End a sanction now."""
    from cardroom.moderation.sanctions import lift
    from cardroom.moderation.staff import COMMAND_LINE

    done = _run(db, lambda c: lift(c, COMMAND_LINE, sanction, reason, _now()), wake=True)
    typer.echo(f"sanction {done['id']} ({done['kind']}) lifted — {reason}")


@admin.command("close-table")
def close_table_command(
    table: Annotated[str, typer.Argument(help="The table's id (t_…).")],
    reason: Annotated[str, typer.Option(help="Why: told to everyone at the table.")],
    db: Db = None,
) -> None:
    """Close an open table: the process running it closes it and tells everyone why."""
    from cardroom.moderation.closing import close_order
    from cardroom.moderation.staff import COMMAND_LINE

    _run(db, lambda c: close_order(c, COMMAND_LINE, table, reason, _now()), wake=True)
    typer.echo(f"table {table}: closing — {reason}")


@admin.command("player")
def player_command(
    name: Annotated[str, typer.Argument(help="A name (or part of one) or a p_… id.")],
    as_json: Json = False,
    db: Db = None,
) -> None:
    """Find a player: role, recent matches, reports about and by them, sanctions."""
    from cardroom.moderation.players import dossier

    found = _run(db, lambda c: dossier(c, _player(c, name), _now()))

    def lines(d: dict[str, Any]) -> list[str]:
        p = d["player"]
        out = [f"{p['name']} ({p['id']}): {p['role']}, {'account' if p['claimed'] else 'guest'}"]
        out += [f"  in force: {k} — {v['reason']}" for k, v in d["standing"].items() if v]
        out += [f"  sanction {s['id']}: {s['kind']} — {s['reason']}" for s in d["sanctions"]]
        out += [f"  reported ({r['status']}): {r['reason']}" for r in d["reports_about"]]
        out += [
            f"  match {m['match']} {m['game']} {'won' if m['won'] else 'lost'}" for m in d["recent"]
        ]
        return out

    _print(found, as_json, lines)


@admin.command("void")
def void_command(
    match: Annotated[str, typer.Argument(help="The match's id (m_…).")],
    reason: Reason,
    lift: Annotated[bool, typer.Option("--lift", help="Lift the void instead.")] = False,
    db: Db = None,
) -> None:
    """Void a counted match (ratings recomputed from it on, boards updated), or lift a void."""
    from cardroom.moderation import fair_play
    from cardroom.moderation.staff import COMMAND_LINE

    action = fair_play.unvoid if lift else fair_play.void
    done = _run(db, lambda c: action(c, COMMAND_LINE, match, reason, _now()), wake=True)
    typer.echo(
        f"match {match}: {'voided' if done['voided'] else 'counts again'}; "
        f"{done['replayed']} rated matches replayed, {done['ratings_moved']} ratings moved"
    )


@admin.command("cheat")
def cheat_command(
    name: Annotated[str, typer.Argument(help="The player's name or p_… id.")],
    reason: Reason,
    lift: Annotated[bool, typer.Option("--lift", help="Clear the mark instead.")] = False,
    db: Db = None,
) -> None:
    """Mark an account as cheating (its results void, hidden from boards), or clear it."""
    from cardroom.moderation import fair_play
    from cardroom.moderation.staff import COMMAND_LINE

    action = fair_play.clear if lift else fair_play.mark

    def work(conn: Connection) -> dict[str, Any]:
        return action(conn, COMMAND_LINE, _player(conn, name), reason, _now())

    done = _run(db, work, wake=True)
    typer.echo(
        f"{done['player']}: {'marked as cheating' if done['marked'] else 'mark cleared'}; "
        f"{len(done['matches'])} matches voided or restored, "
        f"{done['replayed']} rated matches replayed, {done['ratings_moved']} ratings moved"
    )
