"""League tests: ratings, boards, seasons, achievements, accounts, profiles."""
