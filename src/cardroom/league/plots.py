"""Rating history as a PNG (matplotlib, Agg): mu with its 3-sigma band, and the ordinal.

Built with the object API (``Figure``), never ``pyplot``, so request threads share no state.
"""

from __future__ import annotations

import io
from datetime import datetime

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from cardroom.league.ratings import Skill


def rating_png(history: list[tuple[datetime, Skill]], title: str) -> bytes:
    figure = Figure(figsize=(6.4, 3.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if history:
        steps = list(range(1, len(history) + 1))
        mu = [s.mu for _, s in history]
        low = [s.mu - 3 * s.sigma for _, s in history]
        high = [s.mu + 3 * s.sigma for _, s in history]
        axes.fill_between(steps, low, high, color="#9ecae1", alpha=0.4, label="mu ± 3σ")
        axes.plot(steps, mu, color="#3182bd", label="mu")
        axes.plot(steps, low, color="#e6550d", linewidth=2, label="rating (mu − 3σ)")
        axes.set_xlabel("rated matches")
        axes.legend(loc="upper left", fontsize=8)
    else:
        axes.text(0.5, 0.5, "no rated matches yet", ha="center", va="center")
        axes.set_xticks([])
        axes.set_yticks([])
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
