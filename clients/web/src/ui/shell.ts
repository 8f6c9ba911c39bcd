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
  refused: "Refused by the server",
};

export class Shell {
  readonly info: HTMLDivElement;
  readonly main: HTMLElement;
  private readonly conn: HTMLSpanElement;
  private readonly refusal: HTMLElement;
  private readonly refusalText: HTMLElement;
  private readonly retryButton: HTMLButtonElement;
  private onRetry: (() => void) | null = null;

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
    // The server's reason for turning the connection away, above whatever
    // page is shown: the client does not retry by itself after it.
    this.refusalText = h("span", { "data-testid": "connection-refused-reason" });
    this.retryButton = h("button", { type: "button", class: "small", "data-testid": "connection-retry" }, "Retry");
    this.retryButton.addEventListener("click", () => this.onRetry?.());
    this.refusal = h(
      "div",
      { class: "error-box connection-refused", role: "alert", hidden: true, "data-testid": "connection-refused" },
      h("strong", {}, "The server refused the connection: "),
      this.refusalText,
      " ",
      this.retryButton,
    );
    clear(root);
    root.append(header, this.refusal, this.main);
  }

  // `refusal`: the server's reason when the state is "refused"; `retry`
  // tries again (the button under the reason).
  setConnection(state: ConnectionState, refusal = "", retry: (() => void) | null = null): void {
    this.conn.dataset.state = state;
    this.conn.textContent = STATE_LABEL[state];
    this.conn.title = refusal;
    this.refusal.hidden = state !== "refused";
    this.refusalText.textContent = state === "refused" ? refusal : "";
    this.onRetry = retry;
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
