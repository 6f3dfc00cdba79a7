"""`cardroom bench soak` runs end to end, short: a server under the life-like load, probed,
judged, plotted; the load makes no error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_a_short_soak_samples_judges_and_plots(tmp_path: Path) -> None:
    plot = tmp_path / "soak.png"
    args = ["--minutes", "0.3", "--tables", "6", "--every", "2", "--watchers", "1"]
    run = subprocess.run(
        [sys.executable, "-m", "cardroom.cli", "bench", "soak", *args, "--out", str(plot)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    out = run.stdout
    assert "Soak samples" in out and "flat within 10%" in out, run.stderr[-2000:]
    assert "Moves (sent to acknowledged)" in out
    assert " 0 errors" in out, out[-1500:]
    assert plot.stat().st_size > 10_000 and plot.with_suffix(".json").exists()
    # The verdict's line and the command's answer agree (a 18 s run may still be warming up).
    flat = "Everything flat." in out
    assert run.returncode == (0 if flat else 1)
