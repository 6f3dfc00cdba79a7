"""The game server: HTTP lobby, WebSocket play, one actor per table (``docs/protocol.md``)."""
