// Hash routes: the page is static, so links survive any server path.
//   #/                          lobby
//   #/join/<gameId>/<token>     join that seat and show the table
export type Route =
  | { page: "lobby" }
  | { page: "join"; gameId: string; token: string }
  | { page: "unknown"; hash: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "").replace(/^\/+/, "");
  if (path === "") return { page: "lobby" };
  const parts = path.split("/");
  if (parts[0] === "join" && parts.length === 3 && parts[1] && parts[2]) {
    return { page: "join", gameId: decodeURIComponent(parts[1]), token: decodeURIComponent(parts[2]) };
  }
  return { page: "unknown", hash };
}

export function joinHash(gameId: string, token: string): string {
  return `#/join/${encodeURIComponent(gameId)}/${encodeURIComponent(token)}`;
}

// The absolute link to send a player: this page with the join route.
export function inviteUrl(location: { origin: string; pathname: string }, gameId: string, token: string): string {
  return `${location.origin}${location.pathname}${joinHash(gameId, token)}`;
}
