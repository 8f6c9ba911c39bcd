// Browser test of the table page at tablet widths with touch, and with the
// keyboard alone, against the real `galloper serve` (the uploaded test
// scenario scenarios/fire_and_combat.textproto: few units, and at step 1 the
// Blue wing owes the battery's fire).
//
//  * Tablet, portrait 768x1024 and landscape 1024x768, touch (hasTouch): no
//    sideways scrolling, the orders panel visible, a tap selects a unit, the
//    zoom buttons work by tap and are finger-sized, one finger drags the map,
//    two fingers pinch-zoom it (real touch events through the DevTools
//    protocol).
//  * Keyboard only (no mouse event at all on that page): Tab reaches a unit
//    on the map, its focus is visible, +/- and arrows zoom and pan, Enter
//    selects it; Tab goes on to the orders card, Enter picks the battery's
//    target, Tab to "Lock answers" and Enter locks; Tab reaches the chat.
//  * The lobby at 768x1024 with touch: the demo's seats offered to the bot
//    as checkboxes, ticked with Tab and Space and by a tap; an uploaded
//    scenario's own seats offered instead, and the ticked one sent.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { FIRE_AND_COMBAT, createUploadedGame, loopbackOnly, openTable, screenshot, startHarness, watchPage } from "./harness.mjs";

let harness;
let game;
const problems = [];
before(async () => {
  harness = await startHarness("tablet_keyboard");
  game = await createUploadedGame(harness.browser, harness.base, FIRE_AND_COMBAT, "Tablet and keyboard", problems);
});
after(async () => {
  await game?.organiser.close().catch(() => {});
  await harness?.stop();
});

const seatOf = (re) => game.invites.find((i) => re.test(i.seat) && !/\/army$/.test(i.seat));
const viewBox = (page) =>
  page.locator('svg[data-testid="table-map"]').evaluate((svg) => {
    const [x, y, w, h] = svg.getAttribute("viewBox").split(/\s+/).map(Number);
    return { x, y, w, h };
  });
// The element with the keyboard focus, described.
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: "body" };
    const style = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      testid: el.getAttribute("data-testid") ?? "",
      unit: el.getAttribute("data-unit-id") ?? "",
      option: el.getAttribute("data-option-id") ?? "",
      inOrders: !!el.closest('[data-testid="orders-panel"]'),
      inChat: !!el.closest(".chat-panel"),
      mapButton: el.classList.contains("map-button"),
      focusVisible: el.matches(":focus-visible"),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });

async function tabUntil(page, what, pred, max = 80) {
  const seen = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    seen.push(f.unit || f.option || f.testid || f.tag);
    if (pred(f)) return { f, seen };
  }
  throw new Error(`Tab never reached ${what}; went through: ${seen.join(" > ")}`);
}

test("tablet widths with touch: layout, tap to select, zoom buttons, drag and pinch", async () => {
  for (const [w, hgt] of [
    [768, 1024],
    [1024, 768],
  ]) {
    // A tablet of its own (resizing a page drops Chromium's touch emulation).
    const ctx = await harness.browser.newContext({ viewport: { width: w, height: hgt }, hasTouch: true });
    await loopbackOnly(ctx);
    const { page } = await openTable(harness.browser, seatOf(/^red\//), problems, { context: ctx });
    const cdp = await ctx.newCDPSession(page);
    assert.ok(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "the page sees a touch screen");
    const label = `${w}x${hgt}`;
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${label}: no sideways scrolling (${overflow}px too wide)`);
    const map = await page.locator(".map-wrap").boundingBox();
    const orders = await page.locator('[data-testid="orders-panel"]').boundingBox();
    assert.ok(map.width >= Math.min(w * 0.6, 600) && map.height >= 300, `${label}: the map is large (${map.width}x${map.height})`);
    assert.ok(orders && orders.width >= 280, `${label}: the orders panel is laid out (${JSON.stringify(orders)})`);
    if (w < 900) assert.ok(orders.y >= map.y + map.height - 1, `${label}: one column, the orders under the map`);
    else assert.ok(orders.x >= map.x + map.width - 1, `${label}: two columns, the orders beside the map`);

    // Finger-sized zoom buttons; a tap zooms.
    const zoomIn = page.locator('.map-button[aria-label="Zoom in"]');
    const size = await zoomIn.boundingBox();
    assert.ok(size.width >= 44 && size.height >= 44, `${label}: the zoom button is finger-sized (${size.width}x${size.height})`);
    const before = await viewBox(page);
    await zoomIn.tap();
    const zoomed = await viewBox(page);
    assert.ok(zoomed.w < before.w * 0.9, `${label}: tapping + zooms in (${before.w} -> ${zoomed.w})`);
    await page.locator('.map-button[aria-label="Zoom out"]').tap();
    assert.ok((await viewBox(page)).w > zoomed.w * 1.1, `${label}: tapping − zooms out`);

    // A tap on a unit selects it, and its details show.
    const unit = page.locator('svg[data-testid="table-map"] g.unit[data-unit-id="red_second"] polygon.base').first();
    await unit.tap();
    await page.locator('g.unit.selected[data-unit-id="red_second"]').waitFor({ timeout: 5_000 });
    assert.match(await page.locator('[data-testid="unit-details"]').innerText(), /Red second line/, `${label}: a tap shows the unit's details`);

    // One finger drags the map; two fingers pinch it. Points inside the map.
    const box = await page.locator('svg[data-testid="table-map"]').boundingBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height * 0.25;
    const touch = (type, points) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const v0 = await viewBox(page);
    await touch("touchStart", [[cx, cy]]);
    for (let i = 1; i <= 5; i++) await touch("touchMove", [[cx + i * 20, cy + i * 8]]);
    await touch("touchEnd", []);
    const v1 = await viewBox(page);
    assert.ok(v1.x < v0.x - 0.5 && Math.abs(v1.w - v0.w) < 1e-6, `${label}: a one-finger drag pans (x ${v0.x} -> ${v1.x})`);
    assert.equal(await page.locator('g.unit.selected[data-unit-id="red_second"]').count(), 1, `${label}: a drag does not change the selection`);

    await touch("touchStart", [
      [cx - 30, cy],
      [cx + 30, cy],
    ]);
    for (let i = 1; i <= 5; i++) {
      await touch("touchMove", [
        [cx - 30 - i * 15, cy],
        [cx + 30 + i * 15, cy],
      ]);
    }
    await touch("touchEnd", []);
    const v2 = await viewBox(page);
    assert.ok(v2.w < v1.w * 0.7, `${label}: spreading two fingers zooms in (${v1.w} -> ${v2.w})`);
    assert.equal(await page.locator('g.unit.selected[data-unit-id="red_second"]').count(), 1, `${label}: a pinch does not change the selection`);

    await page.locator('[data-testid="fit-map"]').tap();
    await screenshot(page, `tablet-${label}`);
    await ctx.close();
  }
  assert.deepEqual(problems, [], "no page errors or console errors");
});

test("keyboard alone: select a unit on the map, give its order, lock, reach the chat", async () => {
  const ctx = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page } = await openTable(harness.browser, seatOf(/^blue\//), problems, { context: ctx });
  // Any mouse event on this page fails the test.
  await page.evaluate(() => {
    window.__mouse = 0;
    for (const t of ["mousedown", "mouseup", "click", "pointerdown"]) {
      document.addEventListener(t, (e) => e.isTrusted && e.detail !== 0 && window.__mouse++, true);
    }
  });
  await page.waitForFunction(() => window.galloper.play.decisions.some((d) => d.id === "fire/blue_battery"), null, { timeout: 10_000 });

  // The first Tab stop skips to the orders; going on instead walks the map.
  // (after the header's home link)
  await tabUntil(page, "'Skip to orders' first on the page", (f) => f.testid === "skip-to-orders", 2);
  const toUnit = await tabUntil(page, "the battery on the map", (f) => f.unit === "blue_battery");
  assert.ok(toUnit.f.focusVisible, "the focused unit matches :focus-visible (drawn with a dashed outline)");
  const ring = await page.locator('g.unit[data-unit-id="blue_battery"] polygon.base').evaluate((el) => getComputedStyle(el).strokeDasharray);
  assert.notEqual(ring, "none", "the focused unit's outline is dashed");

  // Zoom and pan from the keyboard.
  const v0 = await viewBox(page);
  await page.keyboard.press("+");
  const v1 = await viewBox(page);
  assert.ok(v1.w < v0.w, `+ zooms in (${v0.w} -> ${v1.w})`);
  await page.keyboard.press("ArrowLeft");
  const v2 = await viewBox(page);
  assert.ok(v2.x < v1.x, `ArrowLeft pans (${v1.x} -> ${v2.x})`);
  await page.keyboard.press("-");
  assert.ok((await viewBox(page)).w > v2.w, "- zooms out");
  await page.keyboard.press("0");

  // Enter selects it: details, and its card in the orders panel marked.
  await page.keyboard.press("Enter");
  await page.locator('g.unit.selected[data-unit-id="blue_battery"]').waitFor({ timeout: 5_000 });
  assert.match(await page.locator('[data-testid="unit-details"]').innerText(), /Blue battery/);
  assert.equal(await page.locator('.decision[data-decision-id="fire/blue_battery"]').evaluate((el) => el.classList.contains("about-selected")), true, "its decision is marked");

  // On to the orders: the map's buttons, then the card's options.
  const toOption = await tabUntil(page, "the fire card's target", (f) => f.option === "red_second");
  assert.ok(toOption.f.inOrders && toOption.f.focusVisible, "the option has the focus, visibly");
  assert.match(toOption.f.outline, /^solid [1-9]/, `the focus ring is drawn (${toOption.f.outline})`);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('.decision[data-decision-id="fire/blue_battery"]')?.getAttribute("data-state") === "answered", null, { timeout: 10_000 });
  assert.equal(await page.locator('.decision[data-decision-id="fire/blue_battery"] button[data-option-id="red_second"]').getAttribute("aria-pressed"), "true");

  const step = await page.evaluate(() => String(window.galloper.play.step));
  await tabUntil(page, "the lock button", (f) => f.testid === "lock-answers");
  await page.keyboard.press("Enter");
  await page.waitForFunction((st) => window.galloper.play.locked || String(window.galloper.play.step) !== st, step, { timeout: 10_000 });
  // The step resolved (Blue was the only seat owing): the fire is in the log.
  await page.locator('[data-testid="event-list"] li.event[data-kind="artillery_fire"]').waitFor({ timeout: 10_000 });

  // The chat is in reach too.
  const toChat = await tabUntil(page, "the chat", (f) => f.inChat && f.tag === "textarea");
  assert.ok(toChat.f.focusVisible, "the chat box shows its focus");
  await screenshot(page, "keyboard-after-lock");

  assert.equal(await page.evaluate(() => window.__mouse), 0, "no mouse event reached the page");
  await ctx.close();
  assert.deepEqual(problems, [], "no page errors or console errors");
});

test("the lobby's bot seats on a tablet: checkboxes by keyboard and touch, an upload's own seats", async () => {
  const ctx = await harness.browser.newContext({ viewport: { width: 768, height: 1024 }, hasTouch: true });
  await loopbackOnly(ctx);
  const page = await ctx.newPage();
  watchPage(page, "tablet lobby", problems);
  await page.goto(`${harness.base}/`);
  // (folded in the closed settings: out of the accessibility tree until opened)
  const group = page.locator('[data-testid="setting-botSeats"]');
  const boxes = group.locator('input[type="checkbox"]');
  await boxes.first().waitFor({ state: "attached", timeout: 15_000 });
  const values = () => boxes.evaluateAll((els) => els.map((el) => el.value));
  const ticked = () => boxes.evaluateAll((els) => els.filter((el) => el.checked).map((el) => el.value));
  assert.deepEqual(await values(), ["allies/army", "allies/left", "allies/right", "french/army", "french/droite", "french/gauche"], "the demo's player seats");

  // Keyboard: open the settings and tick the first seat with Space.
  await tabUntil(page, "the settings' summary", (f) => f.tag === "summary");
  await page.keyboard.press("Enter");
  assert.equal(await page.getByRole("group", { name: "Bot plays" }).getByRole("checkbox").count(), 6, "a group named Bot plays, of checkboxes");
  // (the settings' own inputs all have a test id; the seats' checkboxes have none)
  const first = await tabUntil(page, "a seat's checkbox", (f) => f.tag === "input" && f.testid === "");
  assert.ok(first.f.focusVisible, "the focused checkbox shows its focus");
  assert.equal(await page.evaluate(() => document.activeElement.value), "allies/army", "Tab reaches the first seat");
  await page.keyboard.press("Space");
  assert.deepEqual(await ticked(), ["allies/army"]);
  // Touch: a tap on a seat's label ticks it; the labels are finger-sized.
  const label = group.locator("label", { has: page.locator('input[value="french/gauche"]') });
  await label.tap();
  assert.deepEqual(await ticked(), ["allies/army", "french/gauche"]);
  assert.ok(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "the page sees a touch screen");
  const heights = await group.locator("label").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
  assert.ok(heights.every((hgt) => hgt >= 44), `each seat's label is finger-sized (${heights.join(", ")} px high)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling with the seats shown (${overflow}px too wide)`);
  await screenshot(page, "lobby-bot-seats-tablet");

  // An uploaded scenario: the server checks its text and the form offers its
  // seats instead (none of the demo's ticks survive: it has none of them).
  await page.locator('[data-testid="scenario-file"]').setInputFiles(FIRE_AND_COMBAT);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="setting-botSeats"] input')].some((el) => el.value.startsWith("blue/")), null, { timeout: 10_000 });
  assert.deepEqual(await values(), ["blue/army", "blue/blue_wing", "red/army", "red/red_wing"]);
  assert.deepEqual(await ticked(), []);
  await group.locator('input[value="red/red_wing"]').check();
  await page.locator('[data-testid="create-game"]').click();
  const invites = page.locator('[data-testid="invites"]');
  await invites.locator("li[data-seat]").first().waitFor({ timeout: 15_000 });
  // What the page sent, as it keeps it for the game page.
  const sent = await page.evaluate((id) => JSON.parse(localStorage.getItem(`galloper.settings.${id}`) ?? "{}"), await invites.getAttribute("data-game-id"));
  assert.deepEqual(sent.botSeats, ["red/red_wing"]);

  // Back to the bundled scenarios: the demo's seats again.
  await page.locator('[data-testid="scenario-file-clear"]').tap();
  await page.waitForFunction(() => document.querySelector('[data-testid="setting-botSeats"] input')?.value === "allies/army");
  assert.deepEqual(problems, [], "no page errors or console errors");
  await ctx.close();
});
