"""The server's bots: a bounded cache of the bots of the seats being played."""

from __future__ import annotations

import asyncio

from cardroom.bots.levels import LEVELS
from cardroom.games.skip import Match, Options
from cardroom.server.bots import BotCache, BotRunner


def test_the_bot_cache_keeps_at_most_its_size_and_drops_the_least_recently_used():
    cache = BotCache(size=3)
    easy = LEVELS["easy"]
    first = cache.get(easy, "seat-0")
    for n in range(1, 3):
        cache.get(easy, f"seat-{n}")
    assert cache.get(easy, "seat-0") is first  # used again: now the most recent
    for n in range(3, 10):
        cache.get(easy, f"seat-{n}")
    assert len(cache) == 3
    assert cache.get(easy, "seat-0") is not first  # long unused: made anew


def test_a_level_plays_with_its_own_settings():
    cache = BotCache()
    master = LEVELS["master"]
    bot = cache.get(master, "s")
    for key, value in master.settings.items():
        assert getattr(bot, key, value) == value


def test_the_runner_asks_the_bot_of_the_level_and_seed_for_a_legal_action():
    runner = BotRunner("inline")
    match = Match(Options(players=2, match_target=None), "runner")
    view = match.view(match.state.current)
    action = asyncio.run(runner.choose(LEVELS["easy"], "seed", view))
    assert action in view.legal_actions()
    runner.close()


def test_one_slow_decision_does_not_send_a_cheap_level_to_the_executor_for_good():
    runner = BotRunner("thread", inline_below=0.002)
    easy = LEVELS["easy"]
    assert not runner._cheap(easy)  # not measured yet
    for _ in range(BotRunner.SAMPLES):
        runner.note(easy, 1e-5)
    assert runner._cheap(easy)
    runner.note(easy, 0.0084)  # a GC pause
    assert runner._cheap(easy)  # still inline: judged on its recent decisions
    for _ in range(BotRunner.RECENT):
        runner.note(easy, 0.01)  # it really thinks longer now
    assert not runner._cheap(easy)
    runner.close()


def test_a_cheap_level_decides_at_once_and_is_still_timed():
    runner = BotRunner("thread", inline_below=0.002)
    easy = LEVELS["easy"]
    match = Match(Options(players=2, match_target=None), "now")
    view = match.view(match.state.current)
    assert not runner.thinks_inline(easy)  # not measured yet: the executor
    for _ in range(BotRunner.SAMPLES):
        runner.note(easy, 1e-5)
    assert runner.thinks_inline(easy)
    action = runner.decide_now(easy, "seed", view)
    assert action in view.legal_actions()
    assert len(runner._cost[easy.id]) == BotRunner.SAMPLES + 1  # timed like the others
    runner.close()
