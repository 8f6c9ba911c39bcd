// Browser test of orders given by hand on the map, against the real
// `galloper serve`. The game is the test-only scenario
// scenarios/collision.textproto, uploaded through the lobby: Blue's two wings
// each have one foot brigade in line, facing south near the north edge, so
// each wing's page shows the table turned to its own edge.
//
// In turn 1's movement both brigades declare 1 AvD + D6; the east one also
// declares an objective halt (through the page's protocol client: the form
// sends an option or steps, not both), so it may stop short of its roll.
//  * The measuring tape, toggled with "t": a drag on bare table shows its
//    length in inches; Escape clears it, "t" again puts it away.
//  * blue/west (mouse): a drag of its brigade, cancelled with Escape, leaves
//    no draft; a drag straight ahead by the allowance its decision states
//    previews the ghost and says the distance against the allowance, and on
//    release fills the order's typed fields (forward, that distance); it is
//    sent as typed orders are and the server accepts it.
//  * blue/east (a touch screen): a tap selects its brigade, which shows two
//    wheel handles; the right-hand one dragged forward by a finger writes a
//    wheel about the left front corner (anticlockwise, negative), previewed
//    and filled into the fields; sent and accepted.
//  * Every owing seat locks; the step resolves and the umpire's view has
//    blue_west moved south by its allowance and blue_east turned.
//
// Screenshots: drag-move, wheel-handle, map-tape.
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { COLLISION, createUploadedGame, loopbackOnly, openTable, screenshot, startHarness } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("drag_moves");
});
after(async () => {
  await harness?.stop();
});

const MAX_STEPS = 12;
const WINGS = ["blue/west", "blue/east"];
const brigadeOf = (seat) => (seat === "blue/west" ? "blue_west" : "blue_east");

const play = (page) =>
  page.evaluate(() => {
    const g = window.galloper;
    return {
      step: g.play.step === null ? null : String(g.play.step),
      statusStep: g.play.seatStatusStep === null ? null : String(g.play.seatStatusStep),
      owing: [...g.play.owing],
      decisions: g.play.decisions.map((d) => ({
        id: d.id,
        kind: d.kind,
        options: d.options.map((o) => o.id),
        limits: Object.fromEntries(d.limits.map((l) => [l.name, l.value])),
      })),
      drafts: JSON.parse(JSON.stringify(g.play.drafts)),
    };
  });

// Table points (inches, x east, y north) to the page's client pixels, through
// the map's own SVG transform and its turn (data-turned).
const toClient = (page, points) =>
  page.evaluate((pts) => {
    const svg = document.querySelector('svg[data-testid="table-map"]');
    const w = Number(svg.dataset.tableWidth);
    const d = Number(svg.dataset.tableDepth);
    const turned = svg.dataset.turned === "true";
    const m = svg.getScreenCTM();
    return pts.map(({ x, y }) => {
      const p = svg.createSVGPoint();
      p.x = turned ? w - x : x;
      p.y = turned ? y : d - y;
      const q = p.matrixTransform(m);
      return { x: q.x, y: q.y };
    });
  }, points);

const unitOf = (page, id) =>
  page.evaluate((uid) => {
    const u = window.galloper.lastView.units.find((x) => x.id === uid);
    return u && { position: { x: u.position.x, y: u.position.y }, facingDeg: u.facingDeg, bases: u.bases.map((b) => ({ x: b.center.x, y: b.center.y })) };
  }, id);

async function waitCard(page, id, states) {
  await page.waitForFunction(
    ([i, s]) => s.includes(document.querySelector(`.decision[data-decision-id="${i}"]`)?.getAttribute("data-state") ?? ""),
    [id, states],
    { timeout: 10_000 },
  );
}

// Locks with the button; done once the page shows it locked, or the step resolved.
async function lock(page, seat) {
  const button = page.locator('[data-testid="lock-answers"]');
  assert.equal(await button.isEnabled(), true, `${seat}: the lock button is enabled`);
  const step = await page.evaluate(() => String(window.galloper.play.step));
  await button.click();
  await page.waitForFunction((st) => window.galloper.play.locked || String(window.galloper.play.step) !== st, step, { timeout: 10_000 });
}

// A mouse drag in `n` moves; `during` runs before the button is released.
async function mouseDrag(page, from, to, { n = 8, during } = {}) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= n; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / n, from.y + ((to.y - from.y) * i) / n);
  if (during) await during();
  await page.mouse.up();
}

const readout = (page) => page.locator('[data-testid="gesture-readout"]');

test("a move dragged on the map, a wheel by its handle and the tape; the server accepts the orders and the step resolves", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { invites } = await createUploadedGame(browser, base, COLLISION, "Orders on the map", problems);
  const pages = new Map();
  // blue/east plays on a touch screen.
  const touchCtx = await browser.newContext({ viewport: { width: 1366, height: 900 }, hasTouch: true });
  await loopbackOnly(touchCtx);
  for (const inv of invites.filter((i) => i.seat !== "spectator")) {
    const opts = inv.seat === "blue/east" ? { context: touchCtx } : {};
    pages.set(inv.seat, (await openTable(browser, inv, problems, opts)).page);
  }
  for (const seat of ["umpire", ...WINGS]) assert.ok(pages.has(seat), `seat ${seat} has an invite`);
  const umpire = pages.get("umpire");
  const west = pages.get("blue/west");
  const east = pages.get("blue/east");
  for (const p of [west, east]) assert.equal(await p.locator('svg[data-testid="table-map"]').getAttribute("data-turned"), "true", "Blue sees the table from its own (north) edge");

  // ---- Up to the movement orders: 1 AvD + D6 for both brigades, the east one halting at an objective ----
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
        if (d.kind !== "move_dice" || d.id !== `dice/${brigadeOf(seat)}`) continue;
        assert.ok(d.options.includes("1+d6"), `${d.id} offers 1+d6: ${d.options.join(", ")}`);
        if (seat === "blue/west") {
          await page.locator(`.decision[data-decision-id="${d.id}"] button[data-option-id="1+d6"]`).click();
          await waitCard(page, d.id, ["answered"]);
        } else {
          await page.evaluate(async (id) => {
            const g = window.galloper;
            await g.client.submitAnswer(g.gameId, g.play.step, { decisionId: id, option: "1+d6", steps: [{ action: "objective" }] });
          }, d.id);
        }
      }
    }
    if (moveStep !== null) break;
    for (const seat of u.owing) await lock(pages.get(seat), seat);
    await umpire.waitForFunction((st) => String(window.galloper.play.seatStatusStep) !== st, stepBefore, { timeout: 15_000 });
  }
  assert.ok(moveStep, "the wings were asked for their brigades' orders");
  const owing = (await play(umpire)).owing;
  for (const seat of WINGS) assert.ok(owing.includes(seat), `${seat} owes an order at step ${moveStep}`);

  // ---- The tape: "t", a drag on bare table, Escape, "t" ----
  await west.locator('svg[data-testid="table-map"]').focus();
  await west.keyboard.press("t");
  assert.equal(await west.locator('[data-testid="tape-toggle"]').getAttribute("aria-pressed"), "true", "t turns the tape on");
  const [t0, t1] = await toClient(west, [{ x: 30, y: 14 }, { x: 30, y: 8 }]);
  await mouseDrag(west, t0, t1);
  const tapeText = await west.locator('[data-testid="tape-readout"]').innerText();
  assert.match(tapeText, /^Tape: (5\.9|6|6\.1) inches$/, `the tape measures 6 inches: ${tapeText}`);
  assert.equal(await west.locator('[data-testid="tape"]').count(), 1, "the tape is drawn");
  assert.equal((await play(west)).drafts["move/blue_west"], undefined, "measuring writes no order");
  await screenshot(west, "map-tape");
  await west.keyboard.press("Escape");
  assert.equal(await west.locator('[data-testid="tape"]').count(), 0, "Escape clears the tape");
  await west.keyboard.press("t");
  assert.equal(await west.locator('[data-testid="tape-toggle"]').getAttribute("aria-pressed"), "false", "t again puts the tape away");
  assert.equal(await west.locator('[data-testid="tape-readout"]').isVisible(), false);

  // ---- blue/west: a drag cancelled with Escape, then the move by its allowance ----
  const westId = "move/blue_west";
  const allowance = (await play(west)).decisions.find((d) => d.id === westId).limits.allowance;
  assert.ok(allowance > 0, `the move states its allowance: ${allowance}`);
  const bw = await unitOf(west, "blue_west");
  assert.equal(bw.facingDeg, 180);
  const grip = bw.bases[1];
  const [g0, gFar, gEnd] = await toClient(west, [grip, { x: grip.x, y: grip.y - 2 }, { x: grip.x, y: grip.y - allowance }]);

  await mouseDrag(west, g0, gFar, {
    during: async () => {
      assert.equal(await readout(west).isVisible(), true, "the drag says what it writes");
      await west.keyboard.press("Escape");
    },
  });
  assert.equal((await play(west)).drafts[westId], undefined, "Escape dropped the drag: no draft");
  assert.equal(await west.locator('[data-testid="move-preview"]').count(), 0, "no ghost after Escape");
  assert.equal(await readout(west).isVisible(), false);

  await mouseDrag(west, g0, gEnd, {
    during: async () => {
      const text = await readout(west).innerText();
      assert.match(text, new RegExp(`^Forward ${allowance} inch(es)?.* — allowance ${allowance} inch(es)?$`), `the readout: ${text}`);
      assert.equal(await readout(west).getAttribute("data-over"), "false");
      assert.equal(await west.locator('[data-testid="move-preview"]').count(), 1, "the ghost is drawn while dragging");
      await screenshot(west, "drag-move");
    },
  });
  const westCard = west.locator(`.decision[data-decision-id="${westId}"]`);
  assert.equal(await westCard.locator('select[data-field="action"]').first().inputValue(), "forward", "the order's first step is a forward move");
  assert.equal(Number(await westCard.locator('input[data-field="distance"]').first().inputValue()), allowance, "its distance is the allowance");
  assert.ok(Math.abs(Number(await westCard.locator('input[data-field="angleDeg"]').first().inputValue())) <= 1, "straight ahead");
  assert.equal(await west.locator('[data-testid="move-preview"] .ghost-step').count(), 1, "the ghost stays with the draft");
  await westCard.locator('[data-testid="send-order"]').click();
  await waitCard(west, westId, ["answered", "refused"]);
  assert.equal(await westCard.getAttribute("data-state"), "answered", `the server accepts the dragged move (${await westCard.locator(".refusal").innerText()})`);

  // ---- blue/east (touch): tap to select, a handle dragged by a finger ----
  const eastId = "move/blue_east";
  const cdp = await touchCtx.newCDPSession(east);
  const touch = (type, points) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map(({ x, y }) => ({ x, y, id: 0 })) });
  const be = await unitOf(east, "blue_east");
  const [tap] = await toClient(east, [be.bases[1]]);
  await touch("touchStart", [tap]);
  await touch("touchEnd", []);
  await east.locator('[data-testid="wheel-handle-right"]').waitFor({ timeout: 5_000 });
  assert.equal(await east.locator('[data-testid="wheel-handles"]').getAttribute("data-unit-id"), "blue_east");
  // Facing south, the brigade's right front corner is its west end; wheeled
  // about its left (east) corner by 12° anticlockwise, that corner comes forward.
  const pivot = { x: be.position.x + 2, y: be.position.y };
  const rad = (12 * Math.PI) / 180;
  const corner = { x: pivot.x - 4, y: pivot.y };
  const swung = { x: pivot.x - 4 * Math.cos(rad), y: pivot.y - 4 * Math.sin(rad) };
  const handleBox = await east.locator('[data-testid="wheel-handle-right"]').boundingBox();
  const [c0, c1] = await toClient(east, [corner, swung]);
  assert.ok(Math.hypot(handleBox.x + handleBox.width / 2 - c0.x, handleBox.y + handleBox.height / 2 - c0.y) < 3, "the handle sits on the right front corner");
  await touch("touchStart", [c0]);
  for (let i = 1; i <= 6; i++) await touch("touchMove", [{ x: c0.x + ((c1.x - c0.x) * i) / 6, y: c0.y + ((c1.y - c0.y) * i) / 6 }]);
  const wheelText = await readout(east).innerText();
  assert.match(wheelText, /^Wheel 1[123]° anticlockwise about the left front corner$/, `the readout: ${wheelText}`);
  assert.equal(await east.locator('[data-testid="move-preview"] .ghost-step[data-action="wheel"]').count(), 1, "the wheel is previewed");
  await screenshot(east, "wheel-handle");
  await touch("touchEnd", []);
  const eastCard = east.locator(`.decision[data-decision-id="${eastId}"]`);
  assert.equal(await eastCard.locator('select[data-field="action"]').first().inputValue(), "wheel");
  assert.equal(await eastCard.locator('select[data-field="pivot"]').first().inputValue(), "left");
  const angle = Number(await eastCard.locator('input[data-field="angleDeg"]').first().inputValue());
  assert.ok(angle <= -11 && angle >= -13, `the wheel's angle is about -12°: ${angle}`);
  await eastCard.locator('[data-testid="send-order"]').click();
  await waitCard(east, eastId, ["answered", "refused"]);
  assert.equal(await eastCard.getAttribute("data-state"), "answered", `the server accepts the wheel (${await eastCard.locator(".refusal").innerText()})`);

  // ---- Everyone owing locks: the step resolves with the orders as given ----
  for (const seat of owing) await lock(pages.get(seat), seat);
  await umpire.waitForFunction((st) => window.galloper.play.step !== null && window.galloper.play.step > BigInt(st), moveStep, { timeout: 15_000 });
  const movedWest = await unitOf(umpire, "blue_west");
  assert.ok(Math.abs(movedWest.position.y - (bw.position.y - allowance)) < 0.05, `blue_west moved ${allowance}" south: ${JSON.stringify(movedWest.position)}`);
  assert.ok(Math.abs(movedWest.position.x - bw.position.x) < 0.05);
  const turnedEast = await unitOf(umpire, "blue_east");
  assert.ok(Math.abs(turnedEast.facingDeg - (180 + angle)) < 0.5, `blue_east wheeled to ${180 + angle}°: ${turnedEast.facingDeg}`);
  assert.deepEqual(problems, []);
});
