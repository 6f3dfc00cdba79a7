"""Clients of a Cardroom server: programs that play at its tables over HTTP and WebSocket."""
