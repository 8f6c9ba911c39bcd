// Entry point: one protocol client for the page, a hash router choosing the
// lobby or a table.
import "./styles.css";
import { GalloperClient } from "./protocol/client";
import { socketUrlFor } from "./protocol/socket";
import { h } from "./ui/dom";
import { mountLobby } from "./ui/lobby";
import { parseRoute } from "./ui/route";
import { Shell, describeError } from "./ui/shell";
import { mountTable } from "./ui/table";

const root = document.getElementById("app");
if (!root) throw new Error("index.html has no #app");

const shell = new Shell(root);
const client = new GalloperClient({ url: socketUrlFor(location), clientName: "galloper-web" });
client.onState((st) => shell.setConnection(st, client.refusal, () => void client.retry().catch(() => {})));

let unmount: (() => void) | null = null;

function route(): void {
  unmount?.();
  unmount = null;
  const r = parseRoute(location.hash);
  switch (r.page) {
    case "lobby":
      unmount = mountLobby(shell, client);
      break;
    case "join":
      unmount = mountTable(shell, client, r.gameId, r.token);
      break;
    default:
      shell.setInfo([{ value: "Not found", field: "page" }]);
      shell.main.replaceChildren(h("div", { class: "card" }, h("p", {}, "No such page. "), h("a", { href: "#/" }, "Back to the lobby")));
  }
}

window.addEventListener("hashchange", route);
client.connect().catch((e) => {
  // A refusal has its own banner with the server's reason.
  if (client.state === "refused") return;
  shell.main.prepend(h("div", { class: "error-box", role: "alert" }, `Cannot talk to the server: ${describeError(e)}`));
});
route();
