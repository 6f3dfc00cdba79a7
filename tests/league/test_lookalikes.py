"""Names that look alike are one name for claiming: the skeleton, the claimed-name check on
SQLite and PostgreSQL, and the migration that gives existing accounts their skeleton."""

from __future__ import annotations

import secrets
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, select

from cardroom.bots.levels import LEVELS_BY_GAME
from cardroom.league import accounts
from cardroom.league.lookalikes import confusables, is_reserved, skeleton
from cardroom.league.models import Account
from cardroom.store.database import MIGRATIONS, open_engine

from .conftest import NOW, PG_ADMIN, add_player

# The look-alikes of the issue, and more of the same kinds.
LOOK_LIKE_ZED = [
    "Ｚｅｄ",  # fullwidth
    "Z\u0435d",  # Cyrillic small ie
    "Źed",  # an accent (precomposed)
    "Z\u0301ed",  # an accent (combining)
    "ℤed",  # double-struck capital Z
    "𝐙𝐞𝐝",  # mathematical bold
    "\u0396ed",  # Greek capital zeta
    "ZED",
    " zed ",
    "z\u0435\u0301d",  # Cyrillic ie with a combining accent
]


@pytest.mark.parametrize("name", LOOK_LIKE_ZED)
def test_names_that_look_like_zed_have_its_skeleton(name: str) -> None:
    assert skeleton(name) == skeleton("Zed") == "zed"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ada", "\u0410d\u0430"),  # Cyrillic capital and small a
        ("Paypal", "\u0420\u0430ура\u04cf"),  # all Cyrillic but the P shape
        ("Hal", "\u0397al"),  # Greek capital eta is H ...
        ("nu", "\u03b7u"),  # ... its small letter is n
        ("Ivan", "lvan"),  # capital I and small l
        ("Bob0", "BobO"),
        ("Amy", "Arny"),
        ("Zoe", "Zoë"),
        ("Ann-Marie", "Ann\u2013Marie"),  # an en dash
    ],
)
def test_common_look_alikes_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(
    "name",
    [
        "Zedek1ah",  # a digit for i
        "Zedekiaћ",  # Cyrillic tshe: h with a stroke (Unicode's table, not the hand-picked one)
        "ZedekIah",  # a capital I, which is an l
        "Zedeklah",  # l, i and 1 are one class
        "Zedek|ah",
        "Zеdеkіаh",  # Cyrillic е, і and а
        "Ｚｅｄｅｋｉａｈ",
        "Zedekiaħ",  # Latin h with a stroke
    ],
)
def test_names_that_look_like_zedekiah_have_its_skeleton(name: str) -> None:
    assert skeleton(name) == skeleton("Zedekiah")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("B0b", "Bob"),
        ("Ja5on", "Jason"),
        ("\u13aada", "Ada"),  # Cherokee letter go: only in Unicode's table
        ("\ua4d4om", "Tom"),  # Lisu letter ta
        ("\U0001d5a0da", "Ada"),  # mathematical sans-serif capital A
    ],
)
def test_digits_for_letters_and_unicodes_own_confusables_share_a_skeleton(one, other) -> None:
    assert skeleton(one) == skeleton(other)


def test_unicodes_confusables_table_is_loaded_whole() -> None:
    table = confusables()
    assert len(table) > 6000  # UTS #39's confusables.txt, not a hand-picked part
    assert table[ord("\u045b")] == "h\u0335"  # Cyrillic tshe: h with a short stroke


@pytest.mark.parametrize(
    "name", ["Easy", "EASY", "Master", "Medium", "Hard", "Beginner", "admin", "Moderator",
             "Adm1n", "M0derator", "Ｅａｓｙ"],
)  # fmt: skip
def test_the_bots_level_names_and_staff_names_are_reserved(name: str) -> None:
    assert is_reserved(name)


def test_every_level_name_of_every_game_is_reserved() -> None:
    for levels in LEVELS_BY_GAME.values():
        for level in levels.values():
            assert is_reserved(level.name) and is_reserved(level.name.upper()), level


@pytest.mark.parametrize("name", ["Ada", "Easy Eddie", "Mastermind", "Hardy", "Admiral"])
def test_names_only_containing_a_reserved_word_are_not_reserved(name: str) -> None:
    assert not is_reserved(name)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Zed", "Zad"), ("Zed", "Ze d"), ("Ada", "Adam"), ("क", "कि"), ("Иван", "Ivan")],
)
def test_names_that_look_different_stay_different(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_a_claimed_name_refuses_its_look_alikes_but_not_its_owner(conn) -> None:
    zed = add_player(conn, "p_zed", "Zed")
    guest = add_player(conn, "p_guest", "Zeb")
    accounts.claim(conn, zed, "hash", "Zed", NOW)
    assert conn.scalar(select(Account.name_skeleton)) == "zed"
    for name in LOOK_LIKE_ZED:
        assert accounts.name_is_claimed(conn, name), name
        assert accounts.name_is_claimed(conn, name, guest), name
        assert not accounts.name_is_claimed(conn, name, zed), name  # its own
    assert not accounts.name_is_claimed(conn, "Zeb")
    with pytest.raises(accounts.AccountError) as refused:
        accounts.claim(conn, guest, "hash", "ℤed", NOW)
    assert refused.value.status == 409 and "looks like" in refused.value.message


def test_claiming_starts_a_new_token_generation(conn) -> None:
    ada = add_player(conn, "p_ada", "Ada")
    claimed = accounts.claim(conn, ada, "hash", "Ada", NOW)
    assert claimed["generation"] == 1
    assert accounts.credentials(conn, "ada") == ("p_ada", "Ada", "hash", 1)
    assert accounts.change_password(conn, ada, "not the stored hash", "new") is None
    assert accounts.change_password(conn, ada, "hash", "new") == 2
    assert accounts.password_of(conn, ada) == ("Ada", "new")


# -- the migration ---------------------------------------------------------------------------------


def _fresh_database(kind: str, tmp_path: Path) -> tuple[Engine, object]:
    if kind == "sqlite":
        return open_engine(f"sqlite:///{tmp_path / 'old.db'}"), lambda: None
    name = "cardroom_migrate_" + secrets.token_hex(4)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return open_engine(urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl()), drop


def _upgrade(engine: Engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_migration_gives_existing_accounts_a_skeleton_and_players_generation_0(
    kind: str, tmp_path: Path
) -> None:
    engine, drop = _fresh_database(kind, tmp_path)
    try:
        _upgrade(engine, "0002_league")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO players (id, name, created_at) VALUES "
                "('p_zed', 'Ｚｅｄ', CURRENT_TIMESTAMP), ('p_guest', 'Ada', CURRENT_TIMESTAMP)"
            )
            conn.exec_driver_sql(
                "INSERT INTO league_accounts (player_id, name_key, password_hash, created_at) "
                "VALUES ('p_zed', 'ｚｅｄ', 'hash', CURRENT_TIMESTAMP)"
            )
        _upgrade(engine, "head")
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT name_skeleton FROM league_accounts").all() == [
                ("zed",)
            ]
            generations = conn.exec_driver_sql("SELECT token_generation FROM players").all()
            assert generations == [(0,), (0,)]
            assert accounts.name_is_claimed(conn, "Zed")
    finally:
        engine.dispose()
        drop()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_skeletons_migration_recomputes_stored_skeletons_with_unicodes_table(
    kind: str, tmp_path: Path
) -> None:
    engine, drop = _fresh_database(kind, tmp_path)
    try:
        _upgrade(engine, "0007_divisions")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO players (id, name, created_at) "
                "VALUES ('p_zed', 'Zedekia\u045b', CURRENT_TIMESTAMP)"
            )
            conn.exec_driver_sql(  # the skeleton the hand-picked table gave (no ћ in it)
                "INSERT INTO league_accounts (player_id, name_key, name_skeleton, "
                "password_hash, created_at) VALUES "
                "('p_zed', 'zedekia\u045b', 'zedekia\u045b', 'hash', CURRENT_TIMESTAMP)"
            )
        _upgrade(engine, "head")
        with engine.connect() as conn:
            stored = conn.exec_driver_sql("SELECT name_skeleton FROM league_accounts").all()
            assert stored == [(skeleton("Zedekiah"),)]
            assert accounts.name_is_claimed(conn, "Zedekiah")
            assert accounts.name_is_claimed(conn, "Zedek1ah")
    finally:
        engine.dispose()
        drop()
