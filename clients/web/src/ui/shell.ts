// The page frame: a header bar (brand, page-specific facts, connection state)
// and a main area the current page owns.
import type { ConnectionState } from "../protocol/client";
import { clear, h } from "./dom";

const STATE_LABEL: Record<ConnectionState, string> = {
  idle: "Not connected",
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
};

export class Shell {
  readonly info: HTMLDivElement;
  readonly main: HTMLElement;
  private readonly conn: HTMLSpanElement;

  constructor(root: HTMLElement) {
    this.info = h("div", { class: "header-info", "data-testid": "header-info" });
    this.conn = h("span", { class: "conn", role: "status", "data-state": "idle" }, STATE_LABEL.idle);
    const header = h(
      "header",
      { class: "topbar" },
      h("a", { class: "brand", href: "#/" }, "Galloper"),
      this.info,
      this.conn,
    );
    this.main = h("main", { id: "main" });
    clear(root);
    root.append(header, this.main);
  }

  setConnection(state: ConnectionState): void {
    this.conn.dataset.state = state;
    this.conn.textContent = STATE_LABEL[state];
  }

  // Replaces the header's facts: [label, value, data-field] triples.
  setInfo(items: { label?: string; value: string; field: string }[]): void {
    clear(this.info);
    for (const it of items) {
      this.info.append(
        h(
          "span",
          { class: `hdr hdr-${it.field}`, "data-field": it.field },
          it.label ? h("span", { class: "hdr-label" }, `${it.label} `) : null,
          h("strong", {}, it.value),
        ),
      );
    }
  }
}

export function errorBox(): { el: HTMLElement; show: (msg: string) => void; clear: () => void } {
  const el = h("div", { class: "error-box", role: "alert", hidden: true });
  return {
    el,
    show: (msg: string) => {
      el.textContent = msg;
      el.hidden = false;
    },
    clear: () => {
      el.textContent = "";
      el.hidden = true;
    },
  };
}

export function describeError(e: unknown): string {
  if (e && typeof e === "object" && "describe" in e && typeof (e as { describe: unknown }).describe === "function") {
    return (e as { describe: () => string }).describe();
  }
  return e instanceof Error ? e.message : String(e);
}
