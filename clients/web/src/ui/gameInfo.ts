// The game's facts beside the table: the settings in force and the dice
// seed's commitment, as shown since this page joined (the reveal at the end
// is checked against it).
import type { GameSettings } from "@gen/galloper/v1/protocol_pb";
import { describeSettings } from "../game/settings";
import type { LifeState } from "../game/life";
import { clear, h } from "./dom";

export class GameInfo {
  readonly root: HTMLElement;
  private readonly settingsList: HTMLDListElement;
  private readonly settingsNote: HTMLElement;
  private readonly commitment: HTMLElement;
  private readonly changed: HTMLElement;

  constructor() {
    this.settingsList = h("dl", { class: "settings-list", "data-testid": "settings-list" });
    this.settingsNote = h("p", { class: "muted small-print", "data-testid": "settings-note" });
    this.commitment = h("code", { class: "commitment", "data-testid": "seed-commitment" });
    this.changed = h("p", { class: "refusal", role: "alert", hidden: true, "data-testid": "commitment-changed" });
    this.root = h(
      "section",
      { class: "game-info", "data-testid": "game-info", "aria-labelledby": "game-info-title" },
      h("h2", { id: "game-info-title" }, "Game"),
      h("h3", {}, "Settings in force"),
      this.settingsList,
      this.settingsNote,
      h("h3", {}, "Dice seed commitment"),
      h("p", { class: "small-print" }, "SHA-256 of the secret seed and the game id, published when the game was created; the seed is revealed at the end so anyone can check every die. ", this.commitment),
      this.changed,
    );
    this.renderSettings(undefined, "");
  }

  // `source` says where the settings came from when the server did not send them.
  renderSettings(settings: GameSettings | undefined, source: string): void {
    clear(this.settingsList);
    if (!settings) {
      this.settingsNote.textContent = "The server did not send this game's settings.";
      this.settingsList.hidden = true;
      return;
    }
    this.settingsList.hidden = false;
    for (const row of describeSettings(settings)) {
      this.settingsList.append(h("dt", {}, row.label), h("dd", { "data-setting": row.key }, row.value));
    }
    this.settingsNote.textContent = source;
  }

  renderLife(life: LifeState): void {
    this.commitment.textContent = life.commitment || "—";
    this.changed.hidden = !life.commitmentChanged;
    this.changed.textContent = life.commitmentChanged
      ? `A later view showed a different commitment (${life.commitmentChanged}): the dice cannot be trusted.`
      : "";
  }
}
