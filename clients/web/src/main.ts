// Entry point: a hash router choosing the lobby or a table, and one protocol
// client for the page shown: the lobby's at /ws, a table's at
// /ws/games/{id} (a proxy in front of several servers routes it by game).
import "./styles.css";
import { GalloperClient } from "./protocol/client";
import { socketUrlFor } from "./protocol/socket";
import { h } from "./ui/dom";
import { mountLobby } from "./ui/lobby";
import { parseRoute, type Route } from "./ui/route";
import { Shell, describeError } from "./ui/shell";
import { mountTable } from "./ui/table";

const root = document.getElementById("app");
if (!root) throw new Error("index.html has no #app");

const shell = new Shell(root);

let client: GalloperClient | null = null;
let offState: (() => void) | null = null;
let unmount: (() => void) | null = null;

function urlFor(r: Route): string {
  return r.page === "join" ? socketUrlFor(location, r.gameId) : socketUrlFor(location);
}

// The client for `url`: the one in use if it already talks there, else a
// new one (the old connection is closed).
function clientFor(url: string): GalloperClient {
  if (client && client.endpoint === url) return client;
  offState?.();
  client?.close();
  const c = new GalloperClient({ url, clientName: "galloper-web" });
  const show = () => shell.setConnection(c.state, c.refusal, () => void c.retry().catch(() => {}));
  offState = c.onState(show);
  client = c;
  c.connect().catch((e) => {
    // A refusal has its own banner with the server's reason.
    if (client !== c || c.state === "refused") return;
    shell.main.prepend(h("div", { class: "error-box", role: "alert" }, `Cannot talk to the server: ${describeError(e)}`));
  });
  show();
  return c;
}

function route(): void {
  unmount?.();
  unmount = null;
  const r = parseRoute(location.hash);
  switch (r.page) {
    case "lobby":
      unmount = mountLobby(shell, clientFor(urlFor(r)));
      break;
    case "join":
      unmount = mountTable(shell, clientFor(urlFor(r)), r.gameId, r.token);
      break;
    default:
      shell.setInfo([{ value: "Not found", field: "page" }]);
      shell.main.replaceChildren(h("div", { class: "card" }, h("p", {}, "No such page. "), h("a", { href: "#/" }, "Back to the lobby")));
  }
}

window.addEventListener("hashchange", route);
route();
