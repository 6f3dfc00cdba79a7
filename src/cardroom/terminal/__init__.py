"""The games in a terminal (``cardroom play``): a Textual app over a ``PlaySession``, any game
of the registry against its bots, from the person's view alone."""
