"""Moderation: roles, reports, sanctions and the audit log of every moderator's action.

Plain functions over a database connection (no I/O of their own, no sockets): the server's
routes, its per-process watcher and the ``cardroom admin`` commands share them, so a sanction
made from the console and one made on the command line are the same rows and the same checks.
The audit log is append-only: nothing here updates or deletes one of its rows.
"""
