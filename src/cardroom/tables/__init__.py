"""Tables: the pure table master (``master.py``) and the values it speaks in.

A table's master is the only writer of its seats and its match. It takes one command at a time
(``commands.py``), handled by the functions of its topic's module (``lobby.py``, ``moves.py``,
``pacing.py`` ...), and answers with effects (``effects.py``): rows to store, messages to send,
timers to arm, bots to ask, the league to tell. It does no I/O and knows no game but through
the Game contract (``cardroom.games.base``), so whole matches run in-process in tests; the
server's actor (``server/actor.py``) feeds it and carries its effects out.
"""
