// Browser test of a turn with artillery fire and a close combat, against the
// real `galloper serve`. The game is the test-only scenario
// scenarios/fire_and_combat.textproto, uploaded through the lobby (a broken
// file first: refused with the server's reason, nothing created). Blue's
// battery has one target in effective range; Blue's and Red's first brigades
// start within 1" of each other, so the combat phase of turn 1 resolves a
// close combat whatever the dice (the scenario file says why).
//
// Every owing seat answers through its own page: the battery's seat picks the
// target on the fire card, one seat drafts a move (the preview is drawn, then
// the draft is left unsent) and every seat locks with the lock button. The
// assertions are on what the pages render: the fire and the combat in the
// event log with their dice, the combat's result, DP markers and bases on the
// map as the views say.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loopbackOnly, openTable, screenshot, startHarness, watchPage } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SCENARIO = path.join(here, "scenarios/fire_and_combat.textproto");
const MAX_STEPS = 16;

let harness;
before(async () => {
  harness = await startHarness("fire_combat");
});
after(async () => {
  await harness?.stop();
});

// The combat's resolution (other "combat" events say who came into contact).
const isResolution = (e) => e.kind === "combat" && /^Combat t\d+c\d+:/.test(e.text);

const play = (page) =>
  page.evaluate(() => {
    const g = window.galloper;
    return {
      step: g.play.step === null ? null : String(g.play.step),
      statusStep: g.play.seatStatusStep === null ? null : String(g.play.seatStatusStep),
      owing: [...g.play.owing],
      decisions: g.play.decisions.map((d) => ({ id: d.id, kind: d.kind, options: d.options.map((o) => o.id), subjects: [...d.subjects] })),
      events: g.play.events.map((e) => ({ kind: e.kind, text: e.text, dice: e.dice.length, sequence: String(e.sequence) })),
      units: (g.lastView?.units ?? []).map((u) => ({ id: u.id, dps: u.dps, bases: u.bases.length, baseCount: u.baseCount })),
      turn: g.lastView?.turn ?? 0,
    };
  });

test("a turn with artillery fire and a close combat: the log, dice, result and DP markers as the server sent them", async () => {
  const problems = [];
  const { browser, base } = harness;

  // ---- The lobby: upload the scenario ----
  const organiser = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(organiser);
  const lobby = await organiser.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(`${base}/`);
  await lobby.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  const file = lobby.locator('[data-testid="scenario-file"]');

  // A broken file: the server's BAD_SCENARIO with the problem's place, no game.
  await file.setInputFiles({ name: "broken.textproto", mimeType: "text/plain", buffer: Buffer.from('name: "broken"\nthis is not a scenario\n') });
  await lobby.locator(".scenario-description", { hasText: "broken.textproto" }).waitFor();
  assert.equal(await lobby.locator('[data-testid="scenario"]').isDisabled(), true, "the bundled list is set aside while a file is chosen");
  // Checked as soon as it is chosen (to offer its seats): its problems shown before Create, no seat offered.
  await lobby.locator(".lobby > .error-box", { hasText: "uploaded:2:" }).waitFor({ timeout: 10_000 });
  assert.equal(await lobby.locator('[data-testid="setting-botSeats"] input').count(), 0, "no seats offered for a broken scenario");
  await lobby.locator('[data-testid="create-game"]').click();
  const refusal = lobby.locator(".lobby > .error-box");
  await refusal.waitFor({ state: "visible", timeout: 10_000 });
  const refusalText = await refusal.innerText();
  assert.match(refusalText, /BAD_SCENARIO/, `the refusal names its code: ${refusalText}`);
  assert.match(refusalText, /uploaded:2:\d+/, `the refusal points at the bad line: ${refusalText}`);
  assert.equal(await lobby.locator('[data-testid="invites"]').isHidden(), true, "no invites for a refused scenario");
  assert.equal(await lobby.locator('[data-testid="games"] tbody tr').count(), 0, "no game was created");

  // The real one.
  await file.setInputFiles(SCENARIO);
  await lobby.locator(".scenario-description", { hasText: "fire_and_combat.textproto" }).waitFor();
  await lobby.locator('[data-testid="title"]').fill("Fire and combat");
  await lobby.locator('[data-testid="create-game"]').click();
  const inviteItems = lobby.locator('[data-testid="invites"] li[data-seat]');
  await inviteItems.first().waitFor({ timeout: 15_000 });
  assert.equal(await refusal.isHidden(), true, "the earlier refusal is cleared");
  const invites = await inviteItems.evaluateAll((els) => els.map((el) => ({ seat: el.getAttribute("data-seat"), url: el.getAttribute("data-invite-url") })));
  await lobby.locator('[data-testid="games"] tbody tr', { hasText: "fire_and_combat" }).waitFor({ timeout: 10_000 });
  await screenshot(lobby, "lobby-uploaded-scenario");
  assert.ok(readFileSync(SCENARIO, "utf8").includes("blue_battery"), "the scenario file has the battery");

  // ---- Play: every owing seat on its own page ----
  const pages = new Map();
  const open = async (seat) => {
    if (!pages.has(seat)) {
      const inv = invites.find((i) => i.seat === seat);
      assert.ok(inv, `seat ${seat} has an invite (${invites.map((i) => i.seat).join(", ")})`);
      pages.set(seat, (await openTable(browser, inv, problems)).page);
    }
    return pages.get(seat);
  };
  const umpire = await open("umpire");
  const blueSeat = invites.find((i) => /^blue\//.test(i.seat) && !/\/army$/.test(i.seat)).seat;
  const redSeat = invites.find((i) => /^red\//.test(i.seat) && !/\/army$/.test(i.seat)).seat;
  const blue = await open(blueSeat);
  const red = await open(redSeat);

  let fired = false;
  let previewed = false;
  for (let round = 0; round < MAX_STEPS; round++) {
    const u = await play(umpire);
    if (u.events.some(isResolution)) break;
    assert.ok(u.owing.length > 0, `the game waits on a seat at step ${u.statusStep} (events so far: ${u.events.map((e) => e.kind).join(", ")})`);
    const stepBefore = u.statusStep;
    for (const seat of u.owing) {
      const page = await open(seat);
      await page.waitForFunction((st) => String(window.galloper.play.step) === st, stepBefore, { timeout: 10_000 });
      const p = await play(page);
      for (const d of p.decisions) {
        const card = page.locator(`.decision[data-decision-id="${d.id}"]`);
        if (d.kind === "artillery_fire") {
          // The battery's one target, chosen on the card.
          assert.ok(d.options.includes("red_second"), `${d.id} offers red_second: ${d.options.join(", ")}`);
          await card.locator('button[data-option-id="red_second"]').click();
          await page.waitForFunction((id) => document.querySelector(`.decision[data-decision-id="${id}"]`)?.getAttribute("data-state") === "answered", d.id, {
            timeout: 10_000,
          });
          fired = true;
        } else if (d.kind === "move_dice" && !previewed && d.options.includes("1")) {
          // One average die, so that the brigade has a move to give.
          await card.locator('button[data-option-id="1"]').click();
          await page.waitForFunction((id) => document.querySelector(`.decision[data-decision-id="${id}"]`)?.getAttribute("data-state") === "answered", d.id, {
            timeout: 10_000,
          });
        } else if (d.kind === "move" && !previewed) {
          // A move drafted on the card: the ghost and rings on the map.
          const editor = card.locator(".order-box");
          if (!(await editor.evaluate((el) => el.open))) await editor.locator("summary").click();
          await card.locator('[data-testid="add-step"]').click();
          await card.locator('select[data-field="action"]').first().selectOption("forward");
          await card.locator('input[data-field="distance"]').first().fill("3");
          await page.locator('svg[data-testid="table-map"] .ghost .ghost-step.final').waitFor({ timeout: 5_000 });
          assert.ok(await page.locator('[data-testid="ranges"]').count(), "the moving unit's rings are drawn");
          await screenshot(page, "orders-move-preview");
          previewed = true;
        }
      }
      await page.locator('[data-testid="lock-answers"]').click();
      await page.waitForFunction((st) => window.galloper.play.locked || String(window.galloper.play.step) !== st, stepBefore, { timeout: 10_000 });
    }
    await umpire.waitForFunction((st) => String(window.galloper.play.seatStatusStep) !== st, stepBefore, { timeout: 15_000 });
  }
  assert.ok(fired, "the battery's seat was asked to fire, and fired");
  assert.ok(previewed, "a move was drafted and previewed on the map");

  // ---- What the pages show ----
  for (const [who, page] of [
    ["umpire", umpire],
    [blueSeat, blue],
    [redSeat, red],
  ]) {
    await page.waitForFunction(() => window.galloper.play.events.some((e) => e.kind === "combat" && /^Combat t\d+c\d+:/.test(e.text)), null, {
      timeout: 10_000,
    });
    const p = await play(page);
    const log = page.locator('[data-testid="event-list"]');

    const fire = p.events.find((e) => e.kind === "artillery_fire");
    if (who !== redSeat || fire) {
      assert.ok(fire, `${who}: the fire is in its events`);
      const li = log.locator(`li.event[data-sequence="${fire.sequence}"]`);
      assert.equal(await li.locator(".event-text").innerText(), fire.text, `${who}: the fire's text as sent`);
      // Each seat is told a piece as it knows it: its own and, to the umpire,
      // every piece by its name; an enemy it sees by what stands on the table.
      const firer = who === redSeat ? "An enemy medium gun" : "Blue battery";
      const target = who === blueSeat ? "an enemy brigade of foot" : "Red second line";
      assert.ok(fire.text.startsWith(`${firer} fires at ${target} (effective range`), `${who}: ${fire.text}`);
      assert.equal(await li.locator(".die").count(), fire.dice, `${who}: the fire's die drawn`);
      assert.ok(fire.dice >= 1, `${who}: the fire rolled a die`);
    }

    const combat = p.events.find(isResolution);
    const li = log.locator(`li.event[data-sequence="${combat.sequence}"]`);
    const text = await li.locator(".event-text").innerText();
    assert.equal(text, combat.text, `${who}: the combat's text as sent`);
    assert.match(text, /Result [+-]?\d+: [A-Za-z ]+ for (blue|red), [A-Za-z ]+ for (blue|red)\./, `${who}: the combat result shown: ${text}`);
    assert.ok(combat.dice > 0, `${who}: the combat rolled dice`);
    assert.equal(await li.locator(".die").count(), combat.dice, `${who}: every combat die drawn`);
    assert.match(await li.locator(".dice").getAttribute("aria-label"), /^Dice: /, `${who}: the dice are named for screen readers`);
    for (const id of ["blue_foot", "red_foot"]) {
      assert.ok(await li.locator(`[data-subject-id="${id}"]`).count(), `${who}: ${id} named in the combat`);
    }

    // DP markers and bases: as many as the view says, for every unit drawn.
    // A unit's DPs are one pip numbered with them, none without.
    let marked = 0;
    for (const unit of p.units) {
      const g = page.locator(`svg[data-testid="table-map"] g.unit[data-unit-id="${unit.id}"]`);
      assert.equal(await g.locator(".dps").count(), unit.dps > 0 ? 1 : 0, `${who}: ${unit.id} shows a DP pip iff it has DPs (${unit.dps})`);
      if (unit.bases > 0) assert.equal(await g.locator("polygon.base, polygon.stand").count(), unit.bases, `${who}: ${unit.id} drawn with its ${unit.bases} base(s)`);
      if (unit.dps > 0) {
        assert.equal(await g.locator(".dps").getAttribute("data-dps"), String(unit.dps));
        assert.equal((await g.locator(".dps text").textContent()).trim(), String(unit.dps), `${who}: ${unit.id}'s pip reads ${unit.dps}`);
      }
      marked += unit.dps;
    }
    const fighters = p.units.filter((x) => x.id === "blue_foot" || x.id === "red_foot");
    const lost = fighters.filter((x) => x.baseCount < 4).length + (2 - fighters.length);
    assert.ok(marked > 0 || lost > 0, `${who}: the combat left DPs or casualties on the map (${JSON.stringify(fighters)})`);
  }

  // A subject of the combat event selects it on the map; its details show its DPs.
  const blueFoot = (await play(blue)).units.find((x) => x.id === "blue_foot");
  if (blueFoot) {
    await blue.locator('[data-testid="event-list"] li.event[data-kind="combat"] [data-subject-id="blue_foot"]').first().click();
    await blue.locator('g.unit.selected[data-unit-id="blue_foot"]').waitFor({ timeout: 5_000 });
    const details = await blue.locator('[data-testid="unit-details"]').innerText();
    assert.match(details, /Blue foot/, "the details show the unit selected");
    if (blueFoot.dps > 0) assert.match(details, new RegExp(`${blueFoot.dps}`), `the details show ${blueFoot.dps} DP`);
  }

  // The combat's entry in sight in the log for the picture.
  const combatSeq = (await play(blue)).events.find(isResolution).sequence;
  await blue.locator(`[data-testid="event-list"] li.event[data-sequence="${combatSeq}"]`).scrollIntoViewIfNeeded();
  await screenshot(blue, "event-log-after-combat");
  await screenshot(umpire, "umpire-table-after-combat");
  assert.deepEqual(problems, [], "no page errors or console errors");
  for (const p of pages.values()) await p.context().close();
  await organiser.close();
});
