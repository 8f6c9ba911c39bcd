// The slice of the browser WebSocket the client uses, so tests can hand it a
// fake. A real WebSocket satisfies it as is.
export interface SocketLike {
  binaryType: BinaryType;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
}

export type SocketFactory = (url: string) => SocketLike;

export const browserSocketFactory: SocketFactory = (url) => new WebSocket(url);

// ws://host/ws next to the page, wss:// when the page came over https. With
// a game id, /ws/games/{id}: a connection for that one game (lobby requests
// still work on it), so a proxy in front of several servers can send every
// connection of a game to the one that holds it.
export function socketUrlFor(location: { protocol: string; host: string }, gameId?: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = gameId ? `/ws/games/${encodeURIComponent(gameId)}` : "/ws";
  return `${scheme}//${location.host}${path}`;
}
