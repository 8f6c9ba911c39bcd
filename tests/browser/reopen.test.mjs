// Browser test of a step that reopens, against the real `galloper serve`. The
// game is the test-only scenario scenarios/collision.textproto, uploaded
// through the lobby: Blue's two wings each have one brigade, side by side,
// 1.2" apart. In turn 1's movement both declare "manoeuvre" and each wing's
// seat orders its brigade to side step 0.8" towards the other: each order
// passes the check alone (the other unit moves too), but together they end
// on top of each other, so when the last owing seat locks the step resolves
// into a collision and reopens (GameNotice "reopened", DecisionsOwed with
// locked: false, the answers kept).
//
// Every seat has its own page. After the collision every page shows the
// reopened notice; every owing seat's page — the one whose lock set off the
// resolution included — shows the step open again with its lock button
// enabled and its answers kept. The wings then step 0.3" instead, every
// owing seat locks again, and the step resolves.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { COLLISION, createUploadedGame, openTable, screenshot, startHarness } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("reopen");
});
after(async () => {
  await harness?.stop();
});

const MAX_STEPS = 12;
const WINGS = ["blue/west", "blue/east"];
const brigadeOf = (seat) => (seat === "blue/west" ? "blue_west" : "blue_east");
// Facing south, a brigade's left is east: the west one steps left, the east one right.
const sideOf = (seat) => (seat === "blue/west" ? "left" : "right");

const play = (page) =>
  page.evaluate(() => {
    const g = window.galloper;
    return {
      step: g.play.step === null ? null : String(g.play.step),
      statusStep: g.play.seatStatusStep === null ? null : String(g.play.seatStatusStep),
      owing: [...g.play.owing],
      lockedSeats: [...g.play.lockedSeats],
      locked: g.play.locked,
      notice: g.play.notice,
      answered: Object.keys(g.play.answered),
      decisions: g.play.decisions.map((d) => ({ id: d.id, kind: d.kind, options: d.options.map((o) => o.id) })),
      events: g.play.events.map((e) => ({ kind: e.kind, text: e.text, subjects: [...e.subjects] })),
      phase: g.lastView?.phase ?? "",
    };
  });

const cardState = (page, id) => page.locator(`.decision[data-decision-id="${id}"]`).getAttribute("data-state");

async function waitCard(page, id, states) {
  await page.waitForFunction(
    ([i, s]) => s.includes(document.querySelector(`.decision[data-decision-id="${i}"]`)?.getAttribute("data-state") ?? ""),
    [id, states],
    { timeout: 10_000 },
  );
}

// A side step of `distance` inches, sent from the decision's card.
async function sideStep(page, seat, decisionId, distance) {
  const card = page.locator(`.decision[data-decision-id="${decisionId}"]`);
  const editor = card.locator(".order-box");
  if (!(await editor.evaluate((el) => el.open))) await editor.locator("summary").click();
  if ((await card.locator('select[data-field="action"]').count()) === 0) await card.locator('[data-testid="add-step"]').click();
  await card.locator('select[data-field="action"]').first().selectOption("side_step");
  await card.locator('input[data-field="distance"]').first().fill(String(distance));
  await card.locator('select[data-field="pivot"]').first().selectOption(sideOf(seat));
  await card.locator('[data-testid="send-order"]').click();
  await waitCard(page, decisionId, ["answered", "refused"]);
  const state = await cardState(page, decisionId);
  assert.equal(state, "answered", `${seat}: the side step of ${distance}" passes the check alone (${await card.locator(".refusal").innerText()})`);
}

// A side step the server refuses (far beyond what a side step may cover).
async function refusedSideStep(page, seat, decisionId) {
  const card = page.locator(`.decision[data-decision-id="${decisionId}"]`);
  await card.locator('input[data-field="distance"]').first().fill("50");
  await card.locator('[data-testid="send-order"]').click();
  await waitCard(page, decisionId, ["refused"]);
}

// Locks with the button; done once the page shows it locked, or the step
// resolved (the last seat to lock).
async function lock(page, seat) {
  const button = page.locator('[data-testid="lock-answers"]');
  assert.equal(await button.isEnabled(), true, `${seat}: the lock button is enabled`);
  const step = await page.evaluate(() => String(window.galloper.play.step));
  await button.click();
  await page.waitForFunction((st) => window.galloper.play.locked || String(window.galloper.play.step) !== st, step, { timeout: 10_000 });
}

test("answers that collide reopen the step on every page; the seats answer, lock again, and it resolves", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { invites } = await createUploadedGame(browser, base, COLLISION, "Colliding orders", problems);
  const pages = new Map();
  for (const inv of invites.filter((i) => i.seat !== "spectator")) pages.set(inv.seat, (await openTable(browser, inv, problems)).page);
  for (const seat of ["umpire", ...WINGS]) assert.ok(pages.has(seat), `seat ${seat} has an invite (${invites.map((i) => i.seat).join(", ")})`);
  const umpire = pages.get("umpire");

  // ---- Up to the movement orders: "manoeuvre" for both brigades, defaults elsewhere ----
  let moveStep = null;
  for (let round = 0; round < MAX_STEPS && moveStep === null; round++) {
    const u = await play(umpire);
    assert.ok(u.owing.length > 0, `the game waits on a seat at step ${u.statusStep}`);
    const stepBefore = u.statusStep;
    for (const seat of u.owing) {
      const page = pages.get(seat);
      await page.waitForFunction((st) => String(window.galloper.play.step) === st, stepBefore, { timeout: 10_000 });
      const p = await play(page);
      if (p.decisions.some((d) => d.kind === "move" && d.id === `move/${brigadeOf(seat)}`)) moveStep = stepBefore;
      for (const d of p.decisions) {
        if (d.kind === "move_dice" && d.id === `dice/${brigadeOf(seat)}`) {
          assert.ok(d.options.includes("manoeuvre"), `${d.id} offers manoeuvre: ${d.options.join(", ")}`);
          await page.locator(`.decision[data-decision-id="${d.id}"] button[data-option-id="manoeuvre"]`).click();
          await waitCard(page, d.id, ["answered"]);
        }
      }
    }
    if (moveStep !== null) break;
    for (const seat of u.owing) await lock(pages.get(seat), seat);
    await umpire.waitForFunction((st) => String(window.galloper.play.seatStatusStep) !== st, stepBefore, { timeout: 15_000 });
  }
  assert.ok(moveStep, "the wings were asked for their brigades' orders");

  // ---- The colliding orders; the wing seats lock last, blue/east the very last ----
  const owing = (await play(umpire)).owing;
  for (const seat of WINGS) assert.ok(owing.includes(seat), `${seat} owes an order at step ${moveStep} (${owing.join(", ")})`);
  for (const seat of WINGS) await sideStep(pages.get(seat), seat, `move/${brigadeOf(seat)}`, 0.8);
  const order = [...owing.filter((s) => !WINGS.includes(s)), ...WINGS];
  for (const seat of order.slice(0, -1)) await lock(pages.get(seat), seat);
  const last = order[order.length - 1];
  const lastPage = pages.get(last);
  await lastPage.locator('[data-testid="lock-answers"]').click();

  // ---- Every page: the step open again ----
  for (const [seat, page] of pages) {
    await page.locator('[data-testid="notice-latest"]', { hasText: "Step reopened" }).waitFor({ timeout: 15_000 });
    // The seat status that unlocks every seat may come just after the notice.
    await page.waitForFunction(() => window.galloper.play.lockedSeats.length === 0, null, { timeout: 10_000 }).catch(() => {});
    const p = await play(page);
    assert.equal(p.step, moveStep, `${seat}: still step ${moveStep}`);
    assert.deepEqual(p.lockedSeats, [], `${seat}: the seats bar shows nobody locked`);
    if (!owing.includes(seat)) continue;
    await page.waitForFunction(() => !window.galloper.play.locked, null, { timeout: 10_000 });
    const button = page.locator('[data-testid="lock-answers"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="lock-answers"]').disabled, null, { timeout: 10_000 });
    assert.equal(await button.innerText(), "Lock answers", `${seat}: the lock button offers to lock again`);
    assert.match(await page.locator('[data-testid="orders-headline"]').innerText(), new RegExp(`^Step ${moveStep}: `), `${seat}: the headline shows the open step`);
    assert.doesNotMatch(await page.locator('[data-testid="orders-headline"]').innerText(), /locked/, `${seat}: not "answers locked"`);
    // The server's words for this seat, as sent (which of its own orders
    // were involved, when the rules name them).
    const notice = page.locator('[data-testid="orders-notice"]');
    assert.equal(await notice.isVisible(), true, `${seat}: the orders panel says why`);
    const sent = await page.evaluate(() => window.galloper.life.notices.filter((n) => n.kind === "reopened").pop().text);
    assert.equal(await notice.innerText(), sent, `${seat}: the notice as the server sent it`);
    assert.match(sent, new RegExp(`^step ${moveStep} reopened: orders collided when it resolved\\. `), `${seat}: ${sent}`);
    if (WINGS.includes(seat)) {
      const id = `move/${brigadeOf(seat)}`;
      assert.ok(p.answered.includes(id), `${seat}: its answer was kept (${p.answered.join(", ")})`);
      assert.equal(await cardState(page, id), "answered", `${seat}: its card shows the kept answer`);
    }
  }
  await screenshot(lastPage, "step-reopened");

  // ---- A refused order: the lock warns that the older answer stands ----
  // West sends an order the server refuses, then presses lock: the panel says
  // so instead of locking; a good order clears the warning.
  const [west, east] = WINGS;
  const westPage = pages.get(west);
  const westButton = westPage.locator('[data-testid="lock-answers"]');
  await refusedSideStep(westPage, west, `move/${brigadeOf(west)}`);
  await westButton.click();
  assert.equal(await westButton.innerText(), "Lock anyway", "a refused order: the first press does not lock");
  assert.equal(await westPage.evaluate(() => window.galloper.play.locked), false);
  assert.match(await westPage.locator('[data-testid="lock-status"]').innerText(), /refused your last order .* keeps the answer it held before/);
  await screenshot(westPage, "lock-warns-of-refused-order");

  // ---- Answer again (0.3": no collision), lock again: the step resolves ----
  for (const seat of WINGS) await sideStep(pages.get(seat), seat, `move/${brigadeOf(seat)}`, 0.3);
  assert.equal(await westButton.innerText(), "Lock answers", "the accepted order clears the warning");
  // East's 0.3" stands; an order refused after it is locked over with "Lock anyway".
  const eastPage = pages.get(east);
  await refusedSideStep(eastPage, east, `move/${brigadeOf(east)}`);
  const eastButton = eastPage.locator('[data-testid="lock-answers"]');
  await eastButton.click();
  assert.equal(await eastButton.innerText(), "Lock anyway");
  for (const seat of order.filter((s) => s !== east)) await lock(pages.get(seat), seat);
  await lock(eastPage, east);
  for (const [seat, page] of pages) {
    await page.waitForFunction((st) => window.galloper.play.step !== null && window.galloper.play.step > BigInt(st), moveStep, { timeout: 15_000 });
    const p = await play(page);
    assert.equal(p.notice, "", `${seat}: the reopened notice is gone with the step`);
  }
  const moved = (await play(umpire)).events.filter((e) => WINGS.some((s) => e.subjects.includes(brigadeOf(s))));
  assert.ok(moved.length >= 2, `both brigades' moves are in the umpire's log: ${moved.map((e) => e.text).join(" | ")}`);
  assert.deepEqual(problems, []);
});
