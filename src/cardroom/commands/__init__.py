"""Command-line commands, one module per area; ``cardroom.cli`` assembles them."""
