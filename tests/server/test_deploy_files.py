"""The deployment's example files (deploy/, docs/deploy.md) cannot rot: the settings file holds
only settings the server has, with values it accepts; the systemd unit passes
``systemd-analyze verify``; every block docs/deploy.md quotes from a file is in that file.
(The nginx site itself runs in tests/server/test_nginx.py.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.server.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOC = ROOT / "docs" / "deploy.md"
QUOTED = re.compile(r"^```\w+ (deploy/\S+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines as systemd's EnvironmentFile reads them (no quotes used here)."""
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, sep, value = line.partition("=")
            assert sep and key == key.strip() and " " not in value, f"not KEY=VALUE: {line!r}"
            values[key] = value
    return values


def test_the_example_settings_are_settings_the_server_has_with_values_it_accepts():
    values = env_file(DEPLOY / "cardroom.env.example")
    fields = {ENV_PREFIX + name.upper(): name for name in Settings.model_fields}
    unknown = sorted(set(values) - set(fields))
    assert not unknown, f"not settings of the server: {unknown}"
    settings = Settings.from_env(**{fields[k]: v for k, v in values.items() if v != ""})
    assert settings.db_url.startswith("postgresql://") and settings.redis_url
    assert settings.host == "127.0.0.1" and settings.trusted_proxies == "127.0.0.1"
    assert settings.log_format == "json" and settings.metrics_token
    assert not settings.set_deals and settings.ladder_enforced and settings.clock_speed == 1


def test_the_unit_runs_one_process_per_port_and_systemd_accepts_it(tmp_path):
    unit = (DEPLOY / "systemd" / "cardroom@.service").read_text()
    assert "ExecStart=/opt/cardroom/.venv/bin/cardroom serve --port %i\n" in unit
    assert "EnvironmentFile=/etc/cardroom/cardroom.env\n" in unit
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    # The unit as an instance, with this checkout's cardroom where /opt/cardroom's would be.
    cardroom = Path(sys.executable).parent / "cardroom"
    instance = tmp_path / "cardroom@8001.service"
    instance.write_text(unit.replace("/opt/cardroom/.venv/bin/cardroom", str(cardroom)))
    checked = subprocess.run([analyze, "verify", str(instance)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stderr


def test_every_block_the_guide_quotes_is_in_its_file_as_quoted():
    quoted = QUOTED.findall(DOC.read_text())
    assert {path for path, _ in quoted} == {
        "deploy/nginx/cardroom.conf",
        "deploy/systemd/cardroom@.service",
        "deploy/cardroom.env.example",
    }
    for path, block in quoted:
        lines = "\n" + (ROOT / path).read_text()  # whole lines, from a line's start
        assert "\n" + block in lines, f"docs/deploy.md quotes {path} wrongly:\n{block}"
