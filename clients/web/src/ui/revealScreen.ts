// The end of the game: the result, the revealed seed, the check that
// SHA-256(seed || game id) is the commitment this page was shown since it
// joined (WebCrypto, in the browser), and the commands that check every die.
import { checkCommitment, verifyCommands, type CommitmentCheck } from "../game/commitment";
import type { LifeState } from "../game/life";
import { clear, h } from "./dom";

export class RevealScreen {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private key = "";
  private dismissed = false;

  constructor() {
    this.body = h("div", { class: "reveal-body" });
    const close = h("button", { type: "button", class: "small", "data-testid": "reveal-close" }, "Show the table");
    close.addEventListener("click", () => this.hide());
    this.root = h(
      "div",
      { class: "reveal-backdrop", hidden: true, "data-testid": "reveal" },
      h(
        "section",
        { class: "reveal card", role: "dialog", "aria-modal": "false", "aria-labelledby": "reveal-title" },
        h("div", { class: "card-head" }, h("h2", { id: "reveal-title" }, "Game over"), close),
        this.body,
      ),
    );
    this.root.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.hide();
    });
  }

  show(): void {
    this.dismissed = false;
    this.root.hidden = !this.key;
  }

  hide(): void {
    this.dismissed = true;
    this.root.hidden = true;
  }

  // Renders once per (seed, result): the check runs when the seed arrives.
  render(life: LifeState, gameId: string): void {
    if (!life.ended) return;
    const key = `${life.seedHex}|${life.result}|${life.commitment}`;
    if (key === this.key) return;
    this.key = key;
    clear(this.body);
    const verdict = h("p", { class: "reveal-verdict", "data-testid": "reveal-verdict", "data-state": "checking" }, "Checking the commitment…");
    this.body.append(
      h("p", { class: "reveal-result", "data-testid": "reveal-result" }, life.result || "The game has ended."),
      h(
        "dl",
        { class: "reveal-facts" },
        h("dt", {}, "Game id"),
        h("dd", {}, h("code", {}, gameId)),
        h("dt", {}, "Seed (revealed)"),
        h("dd", {}, h("code", { "data-testid": "reveal-seed" }, life.seedHex || "not revealed")),
        h("dt", {}, "Commitment shown since the start"),
        h("dd", {}, h("code", { "data-testid": "reveal-commitment" }, life.commitment || "none shown")),
      ),
      verdict,
    );
    if (life.seedHex) {
      const cmd = verifyCommands(gameId, life.seedHex);
      this.body.append(
        h("h3", {}, "Check it yourself"),
        h("p", { class: "small-print" }, "The commitment, with coreutils (prints the commitment above):"),
        h("pre", { class: "cmd", "data-testid": "cmd-commitment" }, cmd.commitment),
        h("p", { class: "small-print" }, "Every die and every step: whoever runs the server exports the game, anyone verifies the file (no server or database needed):"),
        h("pre", { class: "cmd", "data-testid": "cmd-verify" }, `${cmd.exportCmd}\n${cmd.verifyCmd}`),
      );
    }
    if (!this.dismissed) this.root.hidden = false;
    if (!life.seedHex) {
      setVerdict(verdict, { ok: false, computed: "", reason: "the server has not revealed the seed" });
      return;
    }
    const changed = life.commitmentChanged;
    checkCommitment(life.seedHex, gameId, life.commitment).then(
      (check) => {
        if (this.key !== key) return;
        setVerdict(
          verdict,
          check.ok && changed ? { ok: false, computed: check.computed, reason: `but a later view showed another commitment (${changed})` } : check,
        );
      },
      (e: unknown) => {
        if (this.key === key) setVerdict(verdict, { ok: false, computed: "", reason: e instanceof Error ? e.message : String(e) });
      },
    );
  }
}

function setVerdict(el: HTMLElement, check: CommitmentCheck): void {
  el.dataset.state = check.ok ? "verified" : "failed";
  el.className = `reveal-verdict ${check.ok ? "ok" : "refusal"}`;
  el.setAttribute("role", check.ok ? "status" : "alert");
  el.textContent = check.ok
    ? `✓ Commitment verified: SHA-256(seed || game id) = ${check.computed}`
    : `✗ Commitment NOT verified: ${check.reason}`;
}
