"""Server settings read ``CARDROOM_*`` variables, typed and checked, with the same defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.server.settings import WEB_DIR, Settings, SettingsError


def test_defaults_are_a_club_on_one_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDROOM_PORT", raising=False)
    settings = Settings.from_env()
    assert (settings.db_url, settings.host, settings.port) == (
        "sqlite:///var/cardroom.db",
        "127.0.0.1",
        8000,
    )
    assert settings.gc_thresholds == (20000, 20, 50) and settings.web_dir == WEB_DIR


def test_variables_override_defaults_and_flags_override_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CARDROOM_PORT", "8123")
    monkeypatch.setenv("CARDROOM_WS_COMPRESSION", "yes")
    monkeypatch.setenv("CARDROOM_GC_THRESHOLDS", "700, 10, 10")
    monkeypatch.setenv("CARDROOM_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("CARDROOM_WEB_DIR", "/srv/web")
    monkeypatch.setenv("CARDROOM_SECRET", "")  # empty: unset, as before
    settings = Settings.from_env(host="0.0.0.0", port=None)
    assert settings.port == 8123 and settings.host == "0.0.0.0"
    assert settings.ws_compression is True
    assert settings.gc_thresholds == (700, 10, 10)
    assert settings.log_level == "warning"  # uvicorn's spelling
    assert settings.web_dir == Path("/srv/web") and settings.secret == ""
    assert Settings.from_env(port=9000).port == 9000


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("CARDROOM_PORT", "abc", "valid integer"),
        ("CARDROOM_PORT", "70000", "65535"),
        ("CARDROOM_CLOCK_SPEED", "0", "greater than 0"),
        ("CARDROOM_WS_COMPRESSION", "maybe", "boolean"),
        ("CARDROOM_AUTOPILOT_LEVEL", "god", "choose one of"),
    ],
)
def test_a_bad_variable_is_named_in_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, says: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        Settings.from_env()
    message = str(caught.value)
    assert message.startswith(f"{name}={value!r}: ") and says in message
    assert "\n" not in message


def test_settings_cannot_change_once_made() -> None:
    settings = Settings(bot_delay=0.0)
    with pytest.raises(ValueError):
        settings.port = 1  # type: ignore[misc]
