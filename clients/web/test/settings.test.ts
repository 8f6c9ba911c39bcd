import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { MissedDeadline, PlayMode, SeatInfoSchema, SeatRole, Vision, WebhookFormat } from "@gen/galloper/v1/protocol_pb";
import { botSeatChoices, defaultSettingsForm, describeSettings, formatDuration, keepTicked, settingsFromForm } from "../src/game/settings";

describe("settings form -> GameSettings", () => {
  it("takes a daily deadline in a time zone instead of a duration", () => {
    const r = settingsFromForm({ ...defaultSettingsForm, dailyDeadline: "20:00", timeZone: " Europe/Paris " });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.dailyDeadline).toBe("20:00");
    expect(r.settings.timeZone).toBe("Europe/Paris");
    expect(r.settings.stepDeadlineSeconds).toBe(0);
    expect(describeSettings(r.settings).find((x) => x.key === "deadline")?.value).toBe("daily at 20:00 Europe/Paris");
    const bad = settingsFromForm({ ...defaultSettingsForm, dailyDeadline: "8pm", timeZone: "UTC" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.field).toBe("dailyDeadline");
    const noZone = settingsFromForm({ ...defaultSettingsForm, dailyDeadline: "20:00" });
    expect(!noZone.ok && noZone.field).toBe("timeZone");
    const both = settingsFromForm({ ...defaultSettingsForm, dailyDeadline: "20:00", timeZone: "UTC", stepDeadlineMinutes: "60" });
    expect(both.ok).toBe(false);
  });

  it("leaves the server's defaults for an untouched form", () => {
    const r = settingsFromForm(defaultSettingsForm);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.mode).toBe(PlayMode.ALTERNATE);
    expect(r.settings.vision).toBe(Vision.SIDE_SHARED);
    expect(r.settings.stepDeadlineSeconds).toBe(0);
    expect(r.settings.missedDeadline).toBe(MissedDeadline.HOLD);
    expect(r.settings.maxPlayerPauses).toBe(0);
    expect(r.settings.webhooks).toEqual([]);
    expect(r.settings.botSeats).toEqual([]);
    expect(r.settings.digestTime).toBe("");
    expect(r.settings.timeZone).toBe("");
  });

  it("offers the scenario's player seats to the bot and sends the ticked ones", () => {
    const seat = (id: string, role: SeatRole, description: string) =>
      create(SeatInfoSchema, { id, role, side: id.split("/")[0], description });
    const seats = [
      seat("umpire", SeatRole.UMPIRE, "Umpire"),
      seat("french/army", SeatRole.ARMY, "French (Marshal Tallard)"),
      seat("french/left", SeatRole.WING, "French: Left wing (Lt Gen Marsin)"),
      seat("allies/army", SeatRole.ARMY, ""),
      seat("allies/left", SeatRole.WING, "Allies: Left wing"),
    ];
    const choices = botSeatChoices(seats);
    // Never the umpire; a seat without a description is labelled by its id.
    expect(choices).toEqual([
      { id: "french/army", label: "French (Marshal Tallard)" },
      { id: "french/left", label: "French: Left wing (Lt Gen Marsin)" },
      { id: "allies/army", label: "allies/army" },
      { id: "allies/left", label: "Allies: Left wing" },
    ]);
    // Ticks follow the scenario's order; a new scenario keeps only the seats it has.
    expect(keepTicked(["allies/left", "french/army"], choices)).toEqual(["french/army", "allies/left"]);
    expect(keepTicked(["allies/left", "red/left", "umpire"], choices.slice(0, 2))).toEqual([]);
    expect(keepTicked(["french/left", "red/left"], choices)).toEqual(["french/left"]);
    expect(botSeatChoices([])).toEqual([]);

    const r = settingsFromForm({ ...defaultSettingsForm, botSeats: keepTicked(["allies/left", "french/army"], choices) });
    if (!r.ok) throw new Error(r.message);
    expect(r.settings.botSeats).toEqual(["french/army", "allies/left"]);
    expect(Object.fromEntries(describeSettings(r.settings).map((x) => [x.key, x.value])).bots).toBe("french/army, allies/left");
    const none = settingsFromForm(defaultSettingsForm);
    if (!none.ok) throw new Error(none.message);
    expect(none.settings.botSeats).toEqual([]);
    expect(describeSettings(none.settings).find((x) => x.key === "bots")?.value).toBe("none");
  });

  it("sends the webhook as a daily digest at the digest time, in the time zone", () => {
    const r = settingsFromForm({ ...defaultSettingsForm, webhookUrl: "https://example.org/h", webhookDelivery: "daily", digestTime: "18:30", timeZone: "Europe/Paris" });
    if (!r.ok) throw new Error(r.message);
    expect(r.settings.webhooks.map((w) => [w.url, w.dailyDigest])).toEqual([["https://example.org/h", true]]);
    expect(r.settings.digestTime).toBe("18:30");
    expect(r.settings.timeZone).toBe("Europe/Paris");
    expect(r.settings.dailyDeadline).toBe("");
    expect(describeSettings(r.settings).find((x) => x.key === "webhooks")?.value).toBe("1, all as a daily digest at 18:30 Europe/Paris");
    // Without a digest time: at the daily deadline, else midnight; UTC without a zone.
    const atDeadline = settingsFromForm({ ...defaultSettingsForm, webhookUrl: "https://x.org", webhookDelivery: "daily", dailyDeadline: "20:00", timeZone: "UTC" });
    if (!atDeadline.ok) throw new Error(atDeadline.message);
    expect(describeSettings(atDeadline.settings).find((x) => x.key === "webhooks")?.value).toBe("1, all as a daily digest at 20:00 UTC");
    const midnight = settingsFromForm({ ...defaultSettingsForm, webhookUrl: "https://x.org", webhookDelivery: "daily" });
    if (!midnight.ok) throw new Error(midnight.message);
    expect(describeSettings(midnight.settings).find((x) => x.key === "webhooks")?.value).toBe("1, all as a daily digest at 00:00 UTC");
    // Each event: no digest.
    const each = settingsFromForm({ ...defaultSettingsForm, webhookUrl: "https://x.org" });
    if (!each.ok) throw new Error(each.message);
    expect(each.settings.webhooks[0].dailyDigest).toBe(false);
    expect(describeSettings(each.settings).find((x) => x.key === "webhooks")?.value).toBe("1");
  });

  it("refuses a digest it cannot send", () => {
    expect(settingsFromForm({ ...defaultSettingsForm, digestTime: "6pm" })).toMatchObject({ ok: false, field: "digestTime" });
    expect(settingsFromForm({ ...defaultSettingsForm, digestTime: "24:00" })).toMatchObject({ ok: false, field: "digestTime" });
    expect(settingsFromForm({ ...defaultSettingsForm, webhookDelivery: "daily" })).toMatchObject({ ok: false, field: "webhookUrl" });
    expect(settingsFromForm({ ...defaultSettingsForm, webhookUrl: "https://x.org", webhookDelivery: "weekly" })).toMatchObject({ ok: false, field: "webhookDelivery" });
    // A digest time alone is fine: seats' own hooks may ask for digests.
    expect(settingsFromForm({ ...defaultSettingsForm, digestTime: "07:00" })).toMatchObject({ ok: true, settings: { digestTime: "07:00", timeZone: "" } });
  });

  it("fills every field, minutes to seconds", () => {
    const r = settingsFromForm({
      mode: "simultaneous",
      vision: "wing_only",
      stepDeadlineMinutes: "90",
      dailyDeadline: "",
      timeZone: "",
      graceSeconds: "30",
      missedDeadline: "standing_orders",
      spectatorDelayTurns: "2",
      spectatorSide: " red ",
      maxPlayerPauses: "3",
      maxPauseMinutes: "1.5",
      webhookUrl: "https://example.org/hook",
      webhookFormat: "discord",
      webhookDelivery: "each",
      digestTime: "",
      botSeats: [],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.settings;
    expect(s.mode).toBe(PlayMode.SIMULTANEOUS);
    expect(s.vision).toBe(Vision.WING_ONLY);
    expect(s.stepDeadlineSeconds).toBe(5400);
    expect(s.graceSeconds).toBe(30);
    expect(s.missedDeadline).toBe(MissedDeadline.STANDING_ORDERS);
    expect(s.spectatorDelayTurns).toBe(2);
    expect(s.spectatorSide).toBe("red");
    expect(s.maxPlayerPauses).toBe(3);
    expect(s.maxPauseSeconds).toBe(90);
    expect(s.webhooks.map((w) => [w.url, w.format])).toEqual([["https://example.org/hook", WebhookFormat.DISCORD]]);
  });

  it("names the field it cannot read", () => {
    expect(settingsFromForm({ ...defaultSettingsForm, graceSeconds: "-1" })).toMatchObject({ ok: false, field: "graceSeconds" });
    expect(settingsFromForm({ ...defaultSettingsForm, stepDeadlineMinutes: "soon" })).toMatchObject({ ok: false, field: "stepDeadlineMinutes" });
    expect(settingsFromForm({ ...defaultSettingsForm, mode: "chaos" })).toMatchObject({ ok: false, field: "mode" });
    expect(settingsFromForm({ ...defaultSettingsForm, webhookUrl: "ftp://x" })).toMatchObject({ ok: false, field: "webhookUrl" });
    expect(settingsFromForm({ ...defaultSettingsForm, maxPlayerPauses: "99999999999" })).toMatchObject({ ok: false, field: "maxPlayerPauses" });
  });

  it("describes the settings in force", () => {
    const r = settingsFromForm({ ...defaultSettingsForm, stepDeadlineMinutes: "61", maxPlayerPauses: "2", maxPauseMinutes: "10" });
    if (!r.ok) throw new Error(r.message);
    const rows = Object.fromEntries(describeSettings(r.settings).map((x) => [x.key, x.value]));
    expect(rows.deadline).toBe("1 h 1 min");
    expect(rows.pauses).toBe("2 each, up to 10 min");
    expect(rows.vision).toBe("Side shared");
    expect(rows.spectators).toBe("live, seeing the umpire's view");
    expect(formatDuration(0)).toBe("none");
    expect(formatDuration(45)).toBe("45 s");
  });
});
