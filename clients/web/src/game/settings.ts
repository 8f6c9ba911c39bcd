// Game settings: the create-game form's fields to a GameSettings message
// (checked only for shape: the server decides what it accepts), and the
// settings in force as label/value rows for the game page.
import { create } from "@bufbuild/protobuf";
import {
  GameSettingsSchema,
  MissedDeadline,
  PlayMode,
  SeatRole,
  Vision,
  WebhookFormat,
  type GameSettings,
  type SeatInfo,
} from "@gen/galloper/v1/protocol_pb";

// What the form holds: strings as typed, so a half-filled form is representable
// (the bot's seats: the ids ticked, from the scenario's own seats).
export interface SettingsForm {
  mode: string; // "alternate" | "simultaneous"
  vision: string; // "side_shared" | "wing_only"
  stepDeadlineMinutes: string; // "" or 0: no deadline
  dailyDeadline: string; // "" or "HH:MM": a fixed time of day instead
  timeZone: string; // IANA name for the daily deadline, e.g. "Europe/Paris"
  graceSeconds: string;
  missedDeadline: string; // "hold" | "repeat_last" | "standing_orders"
  spectatorDelayTurns: string;
  spectatorSide: string;
  maxPlayerPauses: string;
  maxPauseMinutes: string;
  webhookUrl: string;
  webhookFormat: string; // "json" | "discord" | "slack"
  webhookDelivery: string; // "each" (one POST per event) | "daily" (one digest a day)
  digestTime: string; // "" or "HH:MM": when daily digests go, in timeZone
  botSeats: string[]; // ids of the seats ticked for the bot, in the scenario's order
}

export const defaultSettingsForm: SettingsForm = {
  mode: "alternate",
  vision: "side_shared",
  stepDeadlineMinutes: "",
  dailyDeadline: "",
  timeZone: "",
  graceSeconds: "",
  missedDeadline: "hold",
  spectatorDelayTurns: "",
  spectatorSide: "",
  maxPlayerPauses: "",
  maxPauseMinutes: "",
  webhookUrl: "",
  webhookFormat: "json",
  webhookDelivery: "each",
  digestTime: "",
  botSeats: [],
};

export const MODE_CHOICES: [string, string, PlayMode][] = [
  ["alternate", "Alternate (sides take phases in turn, as the rules say)", PlayMode.ALTERNATE],
  ["simultaneous", "Simultaneous (both sides answer each phase; play-by-web)", PlayMode.SIMULTANEOUS],
];
export const VISION_CHOICES: [string, string, Vision][] = [
  ["side_shared", "Side shared (a seat sees what its side sees)", Vision.SIDE_SHARED],
  ["wing_only", "Wing only (a seat sees what its own troops see)", Vision.WING_ONLY],
];
export const MISSED_CHOICES: [string, string, MissedDeadline][] = [
  ["hold", "Hold, halt or stand (the default of each decision)", MissedDeadline.HOLD],
  ["repeat_last", "Repeat the seat's last answer", MissedDeadline.REPEAT_LAST],
  ["standing_orders", "The seat's standing orders", MissedDeadline.STANDING_ORDERS],
];
export const WEBHOOK_CHOICES: [string, string, WebhookFormat][] = [
  ["json", "JSON", WebhookFormat.JSON],
  ["discord", "Discord", WebhookFormat.DISCORD],
  ["slack", "Slack", WebhookFormat.SLACK],
];

export const DELIVERY_CHOICES: [string, string, boolean][] = [
  ["each", "Each event as it happens", false],
  ["daily", "A daily digest (at the digest time)", true],
];

// A seat the bot may be given: one checkbox in the create form.
export interface BotSeatChoice {
  id: string; // "french/army", "allies/left"
  label: string; // the seat's description, e.g. "French: Left wing (Lt Gen Marsin)"
}

// The seats a bot may play: the scenario's player seats (a Marshal's own
// troops, each wing), in the scenario's order; never the umpire. The server
// sends them (ScenarioInfo.seats) and checks bot_seats against the same list.
export function botSeatChoices(seats: readonly SeatInfo[]): BotSeatChoice[] {
  return seats
    .filter((s) => s.role === SeatRole.ARMY || s.role === SeatRole.WING)
    .map((s) => ({ id: s.id, label: s.description || s.id }));
}

// The seats still ticked when the scenario changes: those the new one also
// has, in its order (a seat it lacks would only be refused on create).
export function keepTicked(ticked: Iterable<string>, choices: readonly BotSeatChoice[]): string[] {
  const was = new Set(ticked);
  return choices.filter((c) => was.has(c.id)).map((c) => c.id);
}

export type SettingsResult = { ok: true; settings: GameSettings } | { ok: false; field: keyof SettingsForm; message: string };

const UINT32_MAX = 4294967295;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

// "" is 0; otherwise a whole number >= 0 (scaled, e.g. minutes to seconds).
function count(text: string, scale = 1): number | null {
  const t = text.trim();
  if (t === "") return 0;
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const v = Math.round(Number(t) * scale);
  return Number.isFinite(v) && v <= UINT32_MAX ? v : null;
}

function choice<T>(choices: [string, string, T][], key: string): T | undefined {
  return choices.find(([k]) => k === key)?.[2];
}

export function settingsFromForm(form: SettingsForm): SettingsResult {
  const mode = choice(MODE_CHOICES, form.mode);
  if (mode === undefined) return { ok: false, field: "mode", message: `unknown play mode "${form.mode}"` };
  const vision = choice(VISION_CHOICES, form.vision);
  if (vision === undefined) return { ok: false, field: "vision", message: `unknown vision "${form.vision}"` };
  const missed = choice(MISSED_CHOICES, form.missedDeadline);
  if (missed === undefined) return { ok: false, field: "missedDeadline", message: `unknown missed-deadline policy "${form.missedDeadline}"` };
  const numbers: [Exclude<keyof SettingsForm, "botSeats">, number, string][] = [
    ["stepDeadlineMinutes", 60, "The step deadline is a number of minutes (empty or 0: none)"],
    ["graceSeconds", 1, "The grace period is a whole number of seconds"],
    ["spectatorDelayTurns", 1, "The spectator delay is a whole number of turns"],
    ["maxPlayerPauses", 1, "Pauses per player is a whole number"],
    ["maxPauseMinutes", 60, "The pause length is a number of minutes"],
  ];
  const values: Partial<Record<keyof SettingsForm, number>> = {};
  for (const [field, scale, message] of numbers) {
    const v = count(form[field], scale);
    if (v === null) return { ok: false, field, message };
    values[field] = v;
  }
  const daily = form.dailyDeadline.trim();
  const zone = form.timeZone.trim();
  if (daily && !HHMM.test(daily)) {
    return { ok: false, field: "dailyDeadline", message: "The daily deadline is a time of day as HH:MM (24-hour)" };
  }
  if (daily && !zone) return { ok: false, field: "timeZone", message: "A daily deadline needs a time zone, e.g. Europe/Paris" };
  if (daily && (values.stepDeadlineMinutes ?? 0) > 0) {
    return { ok: false, field: "dailyDeadline", message: "Choose a step deadline in minutes or a daily deadline, not both" };
  }
  const digest = form.digestTime.trim();
  if (digest && !HHMM.test(digest)) {
    return { ok: false, field: "digestTime", message: "The digest time is a time of day as HH:MM (24-hour)" };
  }
  const url = form.webhookUrl.trim();
  if (url && !/^https?:\/\/[^/\s]+/i.test(url)) {
    return { ok: false, field: "webhookUrl", message: "A webhook is an http:// or https:// URL with a host" };
  }
  const format = choice(WEBHOOK_CHOICES, form.webhookFormat) ?? WebhookFormat.JSON;
  const dailyDigest = choice(DELIVERY_CHOICES, form.webhookDelivery);
  if (dailyDigest === undefined) return { ok: false, field: "webhookDelivery", message: `unknown webhook delivery "${form.webhookDelivery}"` };
  if (dailyDigest && !url) return { ok: false, field: "webhookUrl", message: "A daily digest goes to a webhook: give its URL" };
  const settings = create(GameSettingsSchema, {
    mode,
    vision,
    stepDeadlineSeconds: values.stepDeadlineMinutes ?? 0,
    dailyDeadline: daily,
    // The zone is the daily deadline's and the digest time's (UTC when empty).
    timeZone: daily || digest ? zone : "",
    graceSeconds: values.graceSeconds ?? 0,
    missedDeadline: missed,
    spectatorDelayTurns: values.spectatorDelayTurns ?? 0,
    spectatorSide: form.spectatorSide.trim(),
    maxPlayerPauses: values.maxPlayerPauses ?? 0,
    maxPauseSeconds: values.maxPauseMinutes ?? 0,
    webhooks: url ? [{ url, format, dailyDigest }] : [],
    botSeats: [...form.botSeats],
    digestTime: digest,
  });
  return { ok: true, settings };
}

export function formatDuration(seconds: number): string {
  if (seconds <= 0) return "none";
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", s ? `${s} s` : ""].filter(Boolean).join(" ");
}

const label = <T>(choices: [string, string, T][], v: T): string =>
  choices.find(([, , x]) => x === v)?.[1].replace(/ \(.*\)$/, "") ?? String(v);

// The settings in force, one row each, in the words of the form.
export function describeSettings(s: GameSettings): { key: string; label: string; value: string }[] {
  const digests = s.webhooks.filter((w) => w.dailyDigest).length;
  return [
    { key: "mode", label: "Play", value: label(MODE_CHOICES, s.mode) },
    { key: "vision", label: "Vision", value: label(VISION_CHOICES, s.vision) },
    {
      key: "deadline",
      label: "Step deadline",
      value: s.dailyDeadline ? `daily at ${s.dailyDeadline} ${s.timeZone}` : formatDuration(s.stepDeadlineSeconds),
    },
    { key: "grace", label: "Grace after a deadline", value: formatDuration(s.graceSeconds) },
    { key: "missed", label: "Missed deadline", value: label(MISSED_CHOICES, s.missedDeadline) },
    {
      key: "spectators",
      label: "Spectators",
      value: `${s.spectatorDelayTurns ? `${s.spectatorDelayTurns} turn(s) behind` : "live"}, ${s.spectatorSide ? `seeing as ${s.spectatorSide}` : "seeing the umpire's view"}`,
    },
    {
      key: "pauses",
      label: "Player pauses",
      value: s.maxPlayerPauses
        ? `${s.maxPlayerPauses} each${s.maxPauseSeconds ? `, up to ${formatDuration(s.maxPauseSeconds)}` : ""}`
        : "none (only the umpire pauses)",
    },
    {
      key: "webhooks",
      label: "Webhooks",
      value: s.webhooks.length
        ? `${s.webhooks.length}${digests ? `, ${digests === s.webhooks.length ? "all" : digests} as a daily digest at ${digestAt(s)}` : ""}`
        : "none",
    },
    { key: "bots", label: "Seats the bot plays", value: s.botSeats.length ? s.botSeats.join(", ") : "none" },
  ];
}

// When daily digests go, as the server decides it (GameSettings.digest_time):
// the digest time, else the daily deadline's, else midnight; UTC without a zone.
export function digestAt(s: GameSettings): string {
  return `${s.digestTime || s.dailyDeadline || "00:00"} ${s.timeZone || "UTC"}`;
}
