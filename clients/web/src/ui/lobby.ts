// The lobby: bundled scenarios, games on this server, "Create game" and the
// invite links it returns (shown once: the server keeps only their hashes).
import { toJsonString } from "@bufbuild/protobuf";
import { GameSettingsSchema, type GameCreated, type GameSummary, type ScenarioInfo } from "@gen/galloper/v1/protocol_pb";
import type { GalloperClient } from "../protocol/client";
import {
  DELIVERY_CHOICES,
  MISSED_CHOICES,
  MODE_CHOICES,
  VISION_CHOICES,
  WEBHOOK_CHOICES,
  botSeatChoices,
  defaultSettingsForm,
  keepTicked,
  settingsFromForm,
  type BotSeatChoice,
  type SettingsForm,
} from "../game/settings";
import { clear, h } from "./dom";
import { invitesOf, type InviteLink } from "../game/invites";
import { joinHash, parseRoute } from "./route";
import { describeError, errorBox, type Shell } from "./shell";

export function mountLobby(shell: Shell, client: GalloperClient): () => void {
  shell.setInfo([{ value: "Lobby", field: "page" }]);
  const errors = errorBox();

  const scenarioSelect = h("select", { name: "scenario", id: "scenario", required: true, "data-testid": "scenario" });
  const titleInput = h("input", {
    name: "title",
    id: "title",
    type: "text",
    maxlength: 120,
    placeholder: "e.g. Friday night at Ramillies",
    "data-testid": "title",
  });
  const description = h("p", { class: "scenario-description" });
  // Or a scenario of one's own, in protobuf text format: the server checks it
  // as soon as it is chosen (ListScenarios with its text: its seats, or
  // BAD_SCENARIO with each problem's line and column) and again on create.
  const fileInput = h("input", {
    type: "file",
    id: "scenario-file",
    name: "scenario-file",
    accept: ".textproto,.txtpb,.pbtxt,.txt,text/plain",
    "data-testid": "scenario-file",
  });
  const clearUpload = h("button", { type: "button", class: "small", hidden: true, "data-testid": "scenario-file-clear" }, "Use a bundled scenario");
  let uploaded: { fileName: string; text: string } | null = null;
  const settings = settingsFields();
  const createButton = h("button", { type: "submit", class: "primary", "data-testid": "create-game" }, "Create game");
  const form = h(
    "form",
    { class: "create-form", "aria-label": "Create a game" },
    h("label", { for: "scenario" }, "Scenario"),
    scenarioSelect,
    h("label", { for: "scenario-file" }, "Or upload"),
    h("div", { class: "upload-row" }, fileInput, clearUpload),
    h("label", { for: "title" }, "Title"),
    titleInput,
    settings.root,
    createButton,
  );
  const invitesSection = h("section", { class: "card invites", hidden: true, "data-testid": "invites" });
  const gamesBody = h("tbody");
  const gamesEmpty = h("p", { class: "muted" }, "No games yet.");
  const refresh = h("button", { type: "button", class: "small" }, "Refresh");

  const joinInput = h("input", {
    type: "text",
    id: "join-link",
    placeholder: "Paste an invite link",
    "aria-label": "Invite link",
  });
  const joinForm = h(
    "form",
    { class: "join-form" },
    joinInput,
    h("button", { type: "submit" }, "Join"),
  );

  const page = h(
    "div",
    { class: "lobby" },
    errors.el,
    h("section", { class: "card" }, h("h2", {}, "New game"), form, description),
    invitesSection,
    h("section", { class: "card" }, h("h2", {}, "Join a seat"), joinForm),
    h(
      "section",
      { class: "card games" },
      h("div", { class: "card-head" }, h("h2", {}, "Games on this server"), refresh),
      h(
        "table",
        { class: "games-table", "data-testid": "games" },
        h(
          "thead",
          {},
          h("tr", {}, ...["Title", "Scenario", "Ruleset", "Turn", "Phase", "Created"].map((t) => h("th", { scope: "col" }, t))),
        ),
        gamesBody,
      ),
      gamesEmpty,
    ),
  );
  clear(shell.main);
  shell.main.append(page);

  let scenarios: ScenarioInfo[] = [];
  let alive = true;

  // The chosen scenario's description and the seats the bot may be given.
  const showDescription = () => {
    if (uploaded) return;
    const sc = scenarios.find((x) => x.name === scenarioSelect.value);
    description.textContent = sc ? [sc.ruleset && `Ruleset: ${sc.ruleset}.`, sc.description].filter(Boolean).join(" ") : "";
    settings.setBotSeats(sc ? botSeatChoices(sc.seats) : [], sc ? "" : "Choose a scenario to see its seats.");
  };
  scenarioSelect.addEventListener("change", showDescription);
  let uploadCheck = 0; // the latest upload's check; an older answer is dropped
  const setUpload = (u: { fileName: string; text: string } | null) => {
    uploaded = u;
    scenarioSelect.disabled = !!u;
    clearUpload.hidden = !u;
    const check = ++uploadCheck;
    if (!u) {
      fileInput.value = "";
      showDescription();
      return;
    }
    description.textContent = `Uploaded scenario: ${u.fileName} (the server checks it now and again when you create the game).`;
    settings.setBotSeats([], "Checking the uploaded scenario…");
    client
      .listScenarios({ text: u.text })
      .then((list) => {
        if (!alive || check !== uploadCheck) return;
        const sc = list.scenarios[0];
        description.textContent = `Uploaded scenario: ${u.fileName}${sc?.title ? ` — ${sc.title}` : ""}. ${sc?.description ?? ""}`.trim();
        settings.setBotSeats(botSeatChoices(sc?.seats ?? []), "");
      })
      .catch((e) => {
        if (!alive || check !== uploadCheck) return;
        errors.show(describeError(e));
        // BAD_SCENARIO lists the problems with their lines; create would be refused the same way.
        settings.setBotSeats([], "None offered: the server could not check the uploaded scenario (see above).");
      });
  };
  fileInput.addEventListener("change", () => {
    const file = fileInput.files?.[0];
    if (!file) {
      setUpload(null);
      return;
    }
    errors.clear();
    file
      .text()
      .then((text) => alive && setUpload({ fileName: file.name, text }))
      .catch((e) => alive && errors.show(`Could not read ${file.name}: ${describeError(e)}`));
  });
  clearUpload.addEventListener("click", () => {
    setUpload(null);
    scenarioSelect.focus();
  });

  const loadScenarios = async () => {
    const list = await client.listScenarios();
    if (!alive) return;
    scenarios = list.scenarios;
    clear(scenarioSelect);
    for (const sc of scenarios) {
      scenarioSelect.append(h("option", { value: sc.name }, sc.title ? `${sc.title} (${sc.name})` : sc.name));
    }
    const demo = scenarios.find((x) => x.name === "malbrook/demo");
    if (demo) scenarioSelect.value = demo.name;
    showDescription();
    createButton.disabled = scenarios.length === 0;
  };

  const loadGames = async () => {
    const list = await client.listGames();
    if (!alive) return;
    renderGames(gamesBody, list.games);
    gamesEmpty.hidden = list.games.length > 0;
  };

  const run = (p: Promise<unknown>) => p.catch((e) => alive && errors.show(describeError(e)));

  refresh.addEventListener("click", () => run(loadGames()));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    errors.clear();
    const title =
      titleInput.value.trim() || (uploaded ? uploaded.fileName.replace(/\.[^.]*$/, "") : scenarioSelect.selectedOptions[0]?.textContent) || "Untitled game";
    const built = settingsFromForm(settings.read());
    if (!built.ok) {
      errors.show(built.message);
      settings.focus(built.field);
      return;
    }
    createButton.disabled = true;
    run(
      client
        .createGame(uploaded ? { text: uploaded.text } : scenarioSelect.value, title, built.settings)
        .then((created) => {
          if (!alive) return;
          // This browser remembers the settings it created the game with, for
          // the game page (the server does not send them to a seat yet).
          try {
            localStorage.setItem(settingsKey(created.gameId), toJsonString(GameSettingsSchema, built.settings));
          } catch {
            /* storage full or disabled: the page says it does not know them */
          }
          renderInvites(invitesSection, created, title);
          invitesSection.hidden = false;
          invitesSection.scrollIntoView?.({ block: "nearest" });
          return loadGames();
        })
        .finally(() => (createButton.disabled = false)),
    );
  });
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = joinInput.value.trim();
    const hashAt = text.indexOf("#");
    const route = parseRoute(hashAt >= 0 ? text.slice(hashAt) : text);
    if (route.page !== "join") {
      errors.show("That is not an invite link (it should end in #/join/<game>/<token>).");
      return;
    }
    location.hash = joinHash(route.gameId, route.token);
  });

  createButton.disabled = true;
  run(Promise.all([loadScenarios(), loadGames()]));
  // After a dropped or refused connection comes back: the lists again.
  const offReconnect = client.onReconnected(() => {
    errors.clear();
    run(Promise.all([loadScenarios(), loadGames()]));
  });

  return () => {
    alive = false;
    offReconnect();
  };
}

export const settingsKey = (gameId: string) => `galloper.settings.${gameId}`;

// The create form's settings: collapsed, defaults as the server's.
function settingsFields(): {
  root: HTMLElement;
  read: () => SettingsForm;
  focus: (field: keyof SettingsForm) => void;
  setBotSeats: (choices: BotSeatChoice[], note: string) => void;
} {
  type TextField = Exclude<keyof SettingsForm, "botSeats">;
  const inputs = {} as Record<TextField, HTMLInputElement | HTMLSelectElement>;
  const select = (key: TextField, choices: [string, string, unknown][]) => {
    const el = h("select", { id: `set-${key}`, name: key, "data-testid": `setting-${key}` });
    for (const [value, label] of choices) el.append(h("option", { value }, label));
    el.value = defaultSettingsForm[key];
    inputs[key] = el;
    return el;
  };
  const input = (key: TextField, attrs: Record<string, string | number>) => {
    const el = h("input", { id: `set-${key}`, name: key, "data-testid": `setting-${key}`, value: defaultSettingsForm[key], ...attrs });
    inputs[key] = el;
    return el;
  };
  // The bot's seats: checkboxes filled in by setBotSeats from the scenario's seats.
  const botSeats = h("div", { class: "bot-seats", role: "group", "aria-labelledby": "set-botSeats-label", "data-testid": "setting-botSeats" });
  const botNote = h("span", { class: "muted setting-hint", "data-testid": "bot-seats-note" }, "Choose a scenario to see its seats.");
  const row = (key: TextField, label: string, control: HTMLElement, hint = "") => [
    h("label", { for: `set-${key}` }, label),
    h("div", { class: "setting-control" }, control, hint ? h("span", { class: "muted setting-hint" }, hint) : null),
  ];
  const root = h(
    "details",
    { class: "settings-box", "data-testid": "settings-box" },
    h("summary", {}, "Game settings"),
    h(
      "div",
      { class: "settings-grid" },
      ...row("mode", "Play", select("mode", MODE_CHOICES)),
      ...row("vision", "Vision", select("vision", VISION_CHOICES)),
      ...row("stepDeadlineMinutes", "Step deadline", input("stepDeadlineMinutes", { type: "number", min: 0, step: "any", placeholder: "none" }), "minutes; empty: none"),
      ...row("dailyDeadline", "Or daily at", input("dailyDeadline", { placeholder: "HH:MM" }), "a fixed time of day instead"),
      ...row("timeZone", "Time zone", input("timeZone", { placeholder: Intl.DateTimeFormat().resolvedOptions().timeZone }), "IANA name, e.g. Europe/Paris"),
      ...row("graceSeconds", "Grace", input("graceSeconds", { type: "number", min: 0, step: 1, placeholder: "0" }), "seconds after the deadline"),
      ...row("missedDeadline", "Missed deadline", select("missedDeadline", MISSED_CHOICES)),
      ...row("spectatorDelayTurns", "Spectator delay", input("spectatorDelayTurns", { type: "number", min: 0, step: 1, placeholder: "0" }), "turns"),
      ...row("spectatorSide", "Spectators see as", input("spectatorSide", { type: "text", placeholder: "empty: the umpire's view" }), "a side id"),
      ...row("maxPlayerPauses", "Pauses per player", input("maxPlayerPauses", { type: "number", min: 0, step: 1, placeholder: "0" })),
      ...row("maxPauseMinutes", "Longest pause", input("maxPauseMinutes", { type: "number", min: 0, step: "any", placeholder: "no limit" }), "minutes"),
      ...row("webhookUrl", "Webhook", input("webhookUrl", { type: "url", placeholder: "https://… (optional)" })),
      ...row("webhookFormat", "Webhook format", select("webhookFormat", WEBHOOK_CHOICES)),
      ...row("webhookDelivery", "Webhook sends", select("webhookDelivery", DELIVERY_CHOICES)),
      ...row("digestTime", "Digest time", input("digestTime", { placeholder: "HH:MM" }), "daily digests go then, in the time zone above (UTC if none); empty: at the daily deadline, else midnight"),
      h("span", { id: "set-botSeats-label", class: "setting-label" }, "Bot plays"),
      h("div", { class: "setting-control bot-seats-control" }, botSeats, botNote),
    ),
  );
  const ticked = () => [...botSeats.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].filter((b) => b.checked).map((b) => b.value);
  return {
    root,
    read: () => ({ ...(Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value])) as Omit<SettingsForm, "botSeats">), botSeats: ticked() }),
    focus: (field) => {
      root.open = true;
      (field === "botSeats" ? botSeats.querySelector("input") : inputs[field])?.focus();
    },
    // One checkbox per player seat of the chosen scenario; a seat ticked
    // before stays ticked if this scenario has it too.
    setBotSeats: (choices, note) => {
      const keep = new Set(keepTicked(ticked(), choices));
      clear(botSeats);
      for (const c of choices) {
        const box = h("input", { type: "checkbox", name: "botSeats", value: c.id, "data-seat": c.id });
        box.checked = keep.has(c.id);
        botSeats.append(h("label", { class: "bot-seat" }, box, " ", h("span", {}, c.label), " ", h("span", { class: "muted bot-seat-id" }, c.id)));
      }
      botNote.textContent = note || (choices.length ? "ticked seats are played by the server's bot; leave all unticked for a game of people" : "this scenario has no player seats");
    },
  };
}

function renderGames(body: HTMLTableSectionElement, games: GameSummary[]): void {
  clear(body);
  for (const g of games) {
    const created = g.createdUnix ? new Date(Number(g.createdUnix) * 1000).toLocaleString() : "";
    body.append(
      h(
        "tr",
        { "data-game-id": g.gameId },
        h("td", {}, g.title || g.gameId),
        h("td", {}, g.scenario),
        h("td", {}, g.ruleset),
        h("td", {}, g.turn ? String(g.turn) : "—"),
        h("td", {}, g.phase || "—"),
        h("td", {}, created),
      ),
    );
  }
}

function renderInvites(section: HTMLElement, created: GameCreated, title: string): void {
  clear(section);
  section.dataset.gameId = created.gameId;
  const links = invitesOf(created, location);
  const list = h("ul", { class: "invite-list" });
  for (const inv of links.seats) list.append(inviteItem(inv));
  section.append(
    h("h2", {}, `Invitations: ${title}`),
    h(
      "p",
      {},
      "Send each player the link for their seat. ",
      h("strong", {}, "These links are shown only once"),
      " — copy them now. The umpire's link controls the game.",
    ),
    list,
  );
  // The spectators' link is not a seat: one link for everyone who watches.
  if (links.spectators) {
    section.append(
      h("h3", {}, "Spectators"),
      h("p", { class: "muted" }, "One link for everyone who watches (the game's spectator delay applies); they cannot play or write in the chat."),
      h("ul", { class: "invite-list spectator-invite", "data-testid": "spectator-invite" }, inviteItem(links.spectators)),
    );
  }
  if (created.seedCommitment) {
    section.append(
      h("p", { class: "muted small-print" }, "Dice seed commitment (SHA-256): ", h("code", {}, created.seedCommitment)),
    );
  }
}

function inviteItem(inv: InviteLink): HTMLElement {
  const url = inv.url;
  const field = h("input", { type: "text", readonly: true, value: url, class: "invite-url", "aria-label": `Link for ${inv.seat}` });
  const copy = h("button", { type: "button", class: "small copy" }, "Copy");
  copy.addEventListener("click", () => {
    void copyText(url, field).then((ok) => {
      copy.textContent = ok ? "Copied" : "Select and copy";
      setTimeout(() => (copy.textContent = "Copy"), 2000);
    });
  });
  return h(
    "li",
    { class: "invite", "data-seat": inv.seat, "data-invite-url": url },
    h("div", { class: "invite-seat" }, h("strong", {}, inv.seat), inv.description ? h("span", { class: "muted" }, ` — ${inv.description}`) : null),
    h("div", { class: "invite-row" }, field, copy, h("a", { href: url, class: "invite-open", target: "_blank", rel: "noopener" }, "Open")),
  );
}

async function copyText(text: string, field: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}
