/**
 * Invitations to private tables. A private table opens only for its people and for whoever
 * holds its invitation code (from an invite link, or handed out when one comes through the
 * table's name); the code is kept per table and sent with every call about that table.
 */
const KEY = (id) => `cardroom.invite.${id}`;

export function rememberInvite(tableId, code) {
  if (!tableId || !code) return;
  try {
    localStorage.setItem(KEY(tableId), code);
  } catch {
    /* storage disabled: the link still works for this page */
  }
}

export function inviteOf(tableId) {
  try {
    return localStorage.getItem(KEY(tableId));
  } catch {
    return null;
  }
}

/** "?invite=…" for a table's URLs, or "". */
export function inviteQuery(tableId) {
  const code = inviteOf(tableId);
  return code ? `?invite=${encodeURIComponent(code)}` : "";
}

/** The link that opens a table: with its invitation when it is private. */
export function tableLink(table) {
  const base = `${location.origin}/#/table/${table.id}`;
  const code = table.invite || (table.public ? null : inviteOf(table.id));
  return code ? `${base}?invite=${code}` : base;
}
