// The interactive map: an SVG of the table, pan (drag, arrows), zoom (wheel,
// pinch, buttons, +/-), select a unit (click or tap, or Tab then Enter/Space).
// A seat's map is turned to its side's own edge (orientation.ts); names and
// markers keep their size on screen and names are placed clear of each other
// (declutter.ts) at every zoom. A press may start a gesture instead of a
// pan: the measuring tape when it is on (tapeTool.ts), else whatever the page
// makes of it (`onPress`: dragging a unit to move it, a wheel handle).
import type { GameView } from "@gen/galloper/v1/game_pb";
import type { Vocabulary } from "../game/ruleset";
import { clear, h, s } from "../ui/dom";
import { declutterLabels, labelPriority, labelSize, type Box, type LabelRequest } from "./declutter";
import { drawDefs, drawTable, drawTerrain, drawUnits, unitRects } from "./draw";
import type { WheelHandle } from "./drag";
import { drawGhost, drawRanges } from "./drawPreview";
import { drawHandles } from "./drawTools";
import { decideTurn, frameOf, toScreen, toTable, turnKey, type TableFrame } from "./orientation";
import type { Placement, Preview } from "./preview";
import { TapeTool } from "./tapeTool";
import {
  bounds,
  clientToSvg,
  fmt,
  fitViewBox,
  panViewBox,
  viewBoxAttr,
  withAspect,
  zoomViewBox,
  type Vec,
  type ViewBox,
} from "./geometry";

// A gesture the map hands a pointer to once it has moved past the drag
// threshold (table points); `cancel` when it ends any other way (Escape, a
// second finger, a press that never moved: that one is a click).
export interface MapGesture {
  move(at: Vec): void;
  end(at: Vec): void;
  cancel(): void;
}

export interface TableMapOptions {
  onSelect: (unitId: string | null) => void;
  // A press on the map at a table point, on `target`: a gesture to hand the
  // pointer to, or null to pan (and select on a click) as usual.
  // `unitsPerPx`: table units per screen pixel now, for reach on screen.
  onPress?: (at: Vec, target: Element | null, unitsPerPx: number) => MapGesture | null;
  // Where a seat's turn of the table is kept across reloads (localStorage),
  // so the map does not flip when its army has crossed the middle.
  turnMemory?: Pick<Storage, "getItem" | "setItem"> | null;
}

const ZOOM_STEP = 1.25;
const DRAG_THRESHOLD_PX = 4;
// Between a unit and its markers above it, on screen.
const MARKER_LIFT_PX = 2;

export class TableMap {
  readonly root: HTMLDivElement;
  private readonly svg: SVGSVGElement;
  private readonly tableLayer: SVGGElement;
  private readonly terrainLayer: SVGGElement;
  private readonly unitLayer: SVGGElement;
  // Range rings and front arc under the units; an order's ghost over them.
  private readonly rangeLayer: SVGGElement;
  private readonly ghostLayer: SVGGElement;
  // Over everything: the wheel handles, then the tape.
  private readonly handleLayer: SVGGElement;
  private readonly tapeLayer: SVGGElement;
  private readonly tape: TapeTool;
  private handles: { list: WheelHandle[]; unitId: string } | null = null;
  private readonly readout: HTMLDivElement;
  private gesture: { id: number; x: number; y: number; moved: boolean; handler: MapGesture; target: Element | null } | null = null;
  private readonly onDocKey = (e: KeyboardEvent) => this.onDocumentKey(e);
  private readonly onDocEscape = (e: KeyboardEvent) => this.onDocumentEscape(e);
  private readonly scaleBar: HTMLDivElement;
  private readonly north: HTMLDivElement;
  private view: GameView | null = null;
  private turned = false;
  // The zoom the names and markers were last laid out for (0: lay out again).
  private laidOutAt = 0;
  // The ruleset's words (Joined.ruleset): the scale bar's unit, the
  // statuses' tooltips.
  private words: Vocabulary | null = null;
  private vb: ViewBox | null = null;
  private selectedId: string | null = null;
  private drag: { id: number; x: number; y: number; moved: boolean } | null = null;
  // Touch: every pointer down on the map; two make a pinch (zoom about their
  // midpoint, pan as it moves) and no tap selects until all are lifted.
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private pinch: { dist: number; mid: { x: number; y: number } } | null = null;
  private readonly resizeObserver: ResizeObserver | null;

  constructor(private readonly opts: TableMapOptions) {
    this.svg = s("svg", {
      class: "table-map",
      "data-testid": "table-map",
      role: "application",
      "aria-label":
        "Table map. Drag or arrow keys to pan, wheel or plus/minus to zoom, Tab to a unit and Enter to select it. " +
        "Drag one of your units with a move to order it, its corner handles to wheel; t for the measuring tape.",
      tabindex: 0,
      preserveAspectRatio: "xMidYMid meet",
    });
    this.tableLayer = s("g", {});
    this.terrainLayer = s("g", {});
    this.unitLayer = s("g", {});
    this.rangeLayer = s("g", { class: "range-layer" });
    this.ghostLayer = s("g", { class: "ghost-layer" });
    this.handleLayer = s("g", { class: "handle-layer" });
    this.tapeLayer = s("g", { class: "tape-layer" });
    this.svg.append(drawDefs(), this.tableLayer, this.terrainLayer, this.rangeLayer, this.unitLayer, this.ghostLayer, this.handleLayer, this.tapeLayer);
    this.tape = new TapeTool(this.tapeLayer, () => this.frame(), (n) => this.unitWord(n));

    const button = (label: string, title: string, testid: string, action: () => void) => {
      const b = h("button", { type: "button", class: "map-button", title, "aria-label": title, "data-testid": testid }, label);
      b.addEventListener("click", action);
      return b;
    };
    const controls = h(
      "div",
      { class: "map-controls" },
      button("+", "Zoom in", "zoom-in", () => this.zoomBy(ZOOM_STEP)),
      button("−", "Zoom out", "zoom-out", () => this.zoomBy(1 / ZOOM_STEP)),
      button("⤢", "Fit the table", "fit-map", () => this.fit()),
      this.tape.button,
    );
    this.scaleBar = h("div", { class: "scale-bar", "aria-hidden": "true" });
    this.north = h("div", { class: "north-arrow", "data-testid": "north-arrow" });
    this.showNorth();
    this.readout = h("div", { class: "map-readout gesture-readout", role: "status", "aria-live": "polite", hidden: true, "data-testid": "gesture-readout" });
    const readouts = h("div", { class: "map-readouts" }, this.readout, this.tape.readout);
    this.root = h("div", { class: "map-wrap" }, this.svg, controls, this.north, readouts, this.scaleBar);

    this.svg.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.svg.addEventListener("pointercancel", (e) => {
      this.pointers.delete(e.pointerId);
      if (this.gesture?.id === e.pointerId) this.cancelGesture();
      if (this.pointers.size < 2) this.pinch = null;
      this.drag = null;
      this.svg.classList.remove("dragging");
    });
    this.svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    this.root.addEventListener("keydown", (e) => this.onKey(e));
    // "t" anywhere on the page but a text field; Escape ends a gesture
    // wherever the keyboard is.
    document.addEventListener("keydown", this.onDocKey);
    document.addEventListener("keydown", this.onDocEscape, true);

    this.resizeObserver =
      typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => this.onResize());
    this.resizeObserver?.observe(this.svg);
  }

  destroy(): void {
    this.resizeObserver?.disconnect();
    document.removeEventListener("keydown", this.onDocKey);
    document.removeEventListener("keydown", this.onDocEscape, true);
  }

  update(view: GameView): void {
    let first = this.view === null || this.view.tableWidth !== view.tableWidth || this.view.tableDepth !== view.tableDepth;
    this.view = view;
    const turned = this.decideTurn(view);
    if (turned !== this.turned) {
      this.turned = turned;
      this.showNorth();
      first = true; // the old view box shows the other end of the table
    }
    this.svg.setAttribute("data-table-width", String(view.tableWidth));
    this.svg.setAttribute("data-table-depth", String(view.tableDepth));
    this.svg.setAttribute("data-turned", String(this.turned));
    const frame = this.frame();
    replace(this.tableLayer, drawTable(frame));
    replace(this.terrainLayer, drawTerrain(view, frame));
    this.drawUnitsKeepingFocus();
    this.drawHandles();
    this.tape.redraw();
    if (first) this.fit();
    else this.applyViewBox();
  }

  // What the table page wants drawn around the selection: rings and arc for
  // a placement, the ghost path of an order being edited in `colour` (the
  // moving unit's side's). null clears.
  setOverlay(ranges: Placement | null, ghost: Preview | null, colour = ""): void {
    clear(this.rangeLayer);
    clear(this.ghostLayer);
    if (!this.view) return;
    const frame = this.frame();
    if (ranges) this.rangeLayer.append(drawRanges(ranges, frame));
    if (ghost && ghost.steps.length > 0) this.ghostLayer.append(drawGhost(ghost, frame, colour));
  }

  // Wheel handles on a unit's front corners (drag.ts); null clears.
  setHandles(handles: WheelHandle[] | null, unitId = ""): void {
    this.handles = handles && handles.length ? { list: handles, unitId } : null;
    this.drawHandles();
  }

  // What a gesture is writing, shown over the map; null hides it. `over`:
  // the drag measures more than the allowance the decision states.
  setReadout(text: string | null, tool = "", over = false): void {
    this.readout.hidden = text === null;
    this.readout.textContent = text ?? "";
    this.readout.dataset.tool = text === null ? "" : tool;
    this.readout.dataset.over = String(over);
  }

  // Turns the measuring tape on or off (the toggle button, "t").
  toggleTape(on?: boolean): void {
    this.tape.toggle(on);
  }

  get tapeOn(): boolean {
    return this.tape.active;
  }

  // The table point under a pointer (client pixels), whichever way up the
  // table is drawn; null before the first view.
  tableAt(clientX: number, clientY: number): Vec | null {
    if (!this.vb || !this.view) return null;
    return toTable(this.frame(), clientToSvg(clientX, clientY, this.svg.getBoundingClientRect(), this.vb));
  }

  select(unitId: string | null): void {
    if (this.selectedId === unitId) return;
    this.selectedId = unitId;
    for (const g of this.svg.querySelectorAll<SVGGElement>("g.unit")) {
      const on = g.dataset.unitId === unitId;
      g.classList.toggle("selected", on);
      g.setAttribute("aria-pressed", on ? "true" : "false");
    }
    // The selected unit's name is placed before others'.
    this.layoutMarks();
    this.opts.onSelect(unitId);
  }

  // Pans (keeping the zoom) so a unit is in sight, if it is not already.
  reveal(unitId: string): void {
    const u = this.view?.units.find((x) => x.id === unitId);
    if (!u || !this.vb || !this.view) return;
    const at = u.position ?? u.bases[0]?.center;
    if (!at) return;
    const p = toScreen(this.frame(), at);
    const inset = 0.1;
    const vb = this.vb;
    const inside =
      p.x >= vb.x + vb.w * inset && p.x <= vb.x + vb.w * (1 - inset) && p.y >= vb.y + vb.h * inset && p.y <= vb.y + vb.h * (1 - inset);
    if (inside) return;
    this.vb = { ...vb, x: p.x - vb.w / 2, y: p.y - vb.h / 2 };
    this.applyViewBox();
  }

  get selected(): string | null {
    return this.selectedId;
  }

  fit(): void {
    if (!this.view) return;
    this.vb = fitViewBox(this.view.tableWidth, this.view.tableDepth, this.aspect(), 1);
    this.applyViewBox();
  }

  zoomBy(factor: number, anchor = this.vb ? { x: this.vb.x + this.vb.w / 2, y: this.vb.y + this.vb.h / 2 } : null): void {
    if (!this.vb || !this.view || !anchor) return;
    const span = Math.max(this.view.tableWidth, this.view.tableDepth);
    this.vb = zoomViewBox(this.vb, factor, anchor, 6, span * 4);
    this.applyViewBox();
  }

  panBy(dxPx: number, dyPx: number): void {
    if (!this.vb) return;
    this.vb = panViewBox(this.vb, dxPx, dyPx, this.pixelWidth());
    this.applyViewBox();
  }

  // ---- internals ----

  private frame(): TableFrame {
    return frameOf(this.view ?? { tableWidth: 0, tableDepth: 0 }, this.turned);
  }

  private decideTurn(view: GameView): boolean {
    const key = turnKey(view);
    const memory = this.opts.turnMemory;
    let remembered: boolean | null = null;
    try {
      const kept = view.side ? memory?.getItem(key) : null;
      if (kept === "true" || kept === "false") remembered = kept === "true";
    } catch {
      /* storage unavailable: decide from the view alone */
    }
    const { turned, keep } = decideTurn(view, remembered);
    if (keep) {
      try {
        memory?.setItem(key, String(turned));
      } catch {
        /* not kept: decided again on the next load */
      }
    }
    return turned;
  }

  private showNorth(): void {
    this.north.textContent = this.turned ? "N ↓" : "N ↑";
    this.north.setAttribute(
      "aria-label",
      this.turned ? "North is down: the table is turned to your side's edge" : "North is up",
    );
    this.north.title = this.north.getAttribute("aria-label")!;
  }

  private drawHandles(): void {
    clear(this.handleLayer);
    if (this.handles && this.view) this.handleLayer.append(drawHandles(this.handles.list, this.frame(), this.handles.unitId));
  }

  private unitsPerPx(): number {
    return this.vb ? this.vb.w / this.pixelWidth() : 1;
  }

  private cancelGesture(): void {
    const g = this.gesture;
    this.gesture = null;
    this.svg.classList.remove("gesturing");
    g?.handler.cancel();
  }

  private drawUnitsKeepingFocus(): void {
    if (!this.view) return;
    const focusedId = (document.activeElement as SVGElement | null)?.dataset?.unitId;
    if (this.selectedId && !this.view.units.some((u) => u.id === this.selectedId)) this.select(null);
    replace(this.unitLayer, drawUnits(this.view, this.selectedId, this.frame(), this.words ?? ((k: string) => this.statusLabel(k))));
    this.laidOutAt = 0;
    if (focusedId) {
      this.unitLayer.querySelector<SVGGElement>(`g.unit[data-unit-id="${CSS.escape(focusedId)}"]`)?.focus();
    }
  }

  private applyViewBox(): void {
    if (!this.vb) return;
    this.svg.setAttribute("viewBox", viewBoxAttr(this.vb));
    const pxPerUnit = this.pixelWidth() / this.vb.w;
    // Text stays the same size on screen at any zoom: CSS sizes it in
    // multiples of one screen pixel expressed in table units.
    this.svg.style.setProperty("--px", String(1 / pxPerUnit));
    // Panning keeps every name clear of the others; a zoom moves them.
    if (pxPerUnit !== this.laidOutAt) this.layoutMarks();
    this.updateScaleBar(pxPerUnit);
  }

  // Places each unit's markers just above it on screen and its name where it
  // overlaps no other name and no markers, or leaves the name out, in screen
  // pixels for the zoom now (declutter.ts).
  private layoutMarks(): void {
    if (!this.view || !this.vb) return;
    const k = this.pixelWidth() / this.vb.w;
    this.laidOutAt = k;
    const frame = this.frame();
    const drawn = new Map<string, SVGGElement>();
    for (const g of this.unitLayer.querySelectorAll<SVGGElement>("g.unit")) drawn.set(g.dataset.unitId ?? "", g);
    const requests: LabelRequest[] = [];
    const rows: Box[] = [];
    const bodies: { id: string; box: Box }[] = [];
    const labels = new Map<string, SVGTextElement>();
    this.view.units.forEach((u, order) => {
      const g = drawn.get(u.id);
      if (!g) return;
      const b = bounds(unitRects(u).flat().map((p) => toScreen(frame, p)));
      const around = { x: b.x * k, y: b.y * k, w: b.w * k, h: b.h * k };
      bodies.push({ id: u.id, box: around });
      const markers = g.querySelector<SVGGElement>("g.markers");
      if (markers) {
        const w = Number(markers.dataset.width) || 0;
        const hgt = Number(markers.dataset.height) || 0;
        const cx = around.x + around.w / 2;
        const bottom = around.y - MARKER_LIFT_PX;
        rows.push({ x: cx - w / 2, y: bottom - hgt, w, h: hgt });
        markers.setAttribute("transform", `translate(${fmt(cx / k)} ${fmt(bottom / k)}) scale(${1 / k})`);
      }
      const label = g.querySelector<SVGTextElement>("text.unit-label");
      if (label) {
        labels.set(u.id, label);
        requests.push({ id: u.id, priority: labelPriority(u, this.selectedId), order, around, ...labelSize(label.textContent ?? "") });
      }
    });
    for (const [id, box] of declutterLabels(requests, rows, bodies)) {
      const label = labels.get(id)!;
      label.classList.toggle("label-hidden", box === null);
      if (!box) continue;
      label.setAttribute("x", fmt((box.x + box.w / 2) / k));
      label.setAttribute("y", fmt((box.y + box.h / 2) / k));
    }
  }

  setVocabulary(words: Vocabulary): void {
    this.words = words;
    if (this.view) this.drawUnitsKeepingFocus();
    this.applyViewBox();
  }

  // The ruleset's word for a unit's status.
  private statusLabel(key: string): string {
    return this.words ? this.words.statusLabel(key) : key;
  }

  // The ruleset's word for the unit; before it is known, the view's.
  private unitWord(n: number): string {
    if (this.words?.name) return this.words.unit(n);
    const unit = this.view?.unitName || "unit";
    return n === 1 || unit.endsWith("s") ? unit : `${unit}s`;
  }

  private updateScaleBar(pxPerUnit: number): void {
    // The largest of these lengths that fits in ~160 px.
    const steps = [1, 2, 3, 6, 12, 24, 36, 48];
    let len = steps[0]!;
    for (const st of steps) if (st * pxPerUnit <= 160) len = st;
    clear(this.scaleBar);
    this.scaleBar.append(
      h("span", { class: "scale-line", style: `width:${Math.round(len * pxPerUnit)}px` }),
      h("span", { class: "scale-text" }, `${len} ${this.unitWord(len)}`),
    );
  }

  private pixelWidth(): number {
    return this.svg.clientWidth || this.svg.getBoundingClientRect().width || 800;
  }

  private aspect(): number {
    const r = this.svg.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r.width / r.height : 1.5;
  }

  private onResize(): void {
    if (!this.vb) return;
    this.vb = withAspect(this.vb, this.aspect());
    this.applyViewBox();
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 2) {
      // A second finger: the drag or gesture becomes a pinch.
      this.drag = null;
      this.cancelGesture();
      for (const id of this.pointers.keys()) {
        if (!this.svg.hasPointerCapture(id)) this.svg.setPointerCapture(id);
      }
      this.pinch = this.pinchNow();
      return;
    }
    if (this.pointers.size > 2 || this.pinch) return;
    const at = this.tableAt(e.clientX, e.clientY);
    const target = e.target as Element | null;
    const handler = at ? (this.tape.press(at) ?? this.opts.onPress?.(at, target, this.unitsPerPx()) ?? null) : null;
    if (handler) {
      this.gesture = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, handler, target };
      return;
    }
    this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
  }

  private pinchNow(): { dist: number; mid: { x: number; y: number } } {
    const [a, b] = [...this.pointers.values()];
    return { dist: Math.hypot(a!.x - b!.x, a!.y - b!.y), mid: { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 } };
  }

  private onPointerMove(e: PointerEvent): void {
    if (this.pointers.has(e.pointerId)) this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pinch && this.pointers.size >= 2 && this.vb) {
      const now = this.pinchNow();
      const before = this.pinch;
      this.pinch = now;
      this.panBy(now.mid.x - before.mid.x, now.mid.y - before.mid.y);
      if (before.dist > 0 && now.dist > 0 && this.vb) {
        const anchor = clientToSvg(now.mid.x, now.mid.y, this.svg.getBoundingClientRect(), this.vb);
        this.zoomBy(now.dist / before.dist, anchor);
      }
      return;
    }
    const g = this.gesture;
    if (g && g.id === e.pointerId) {
      if (!g.moved && Math.hypot(e.clientX - g.x, e.clientY - g.y) < DRAG_THRESHOLD_PX) return;
      if (!g.moved) {
        g.moved = true;
        this.svg.setPointerCapture(e.pointerId);
        this.svg.classList.add("gesturing");
      }
      const at = this.tableAt(e.clientX, e.clientY);
      if (at) g.handler.move(at);
      return;
    }
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    if (!d.moved) {
      d.moved = true;
      this.svg.setPointerCapture(e.pointerId);
      this.svg.classList.add("dragging");
    }
    d.x = e.clientX;
    d.y = e.clientY;
    this.panBy(dx, dy);
  }

  private onPointerUp(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    if (this.svg.hasPointerCapture(e.pointerId)) this.svg.releasePointerCapture(e.pointerId);
    if (this.pinch) {
      // Lifting a finger ends the pinch; nothing is selected by it.
      if (this.pointers.size < 2) this.pinch = null;
      this.drag = null;
      return;
    }
    const g = this.gesture;
    if (g && g.id === e.pointerId) {
      this.gesture = null;
      this.svg.classList.remove("gesturing");
      const at = this.tableAt(e.clientX, e.clientY);
      if (g.moved && at) {
        g.handler.end(at);
        return;
      }
      // Never moved: a click, as on any other part of the map.
      g.handler.cancel();
      const unit = g.target?.closest?.("g.unit") as SVGGElement | null;
      this.select(unit?.dataset.unitId ?? null);
      return;
    }
    const d = this.drag;
    this.drag = null;
    this.svg.classList.remove("dragging");
    if (!d || d.id !== e.pointerId) return;
    if (d.moved) {
      if (this.svg.hasPointerCapture(e.pointerId)) this.svg.releasePointerCapture(e.pointerId);
      return;
    }
    // A click: select the unit under the pointer, or clear the selection.
    const unit = (e.target as Element | null)?.closest?.("g.unit") as SVGGElement | null;
    this.select(unit?.dataset.unitId ?? null);
  }

  private onWheel(e: WheelEvent): void {
    if (!this.vb) return;
    e.preventDefault();
    const r = this.svg.getBoundingClientRect();
    const anchor = clientToSvg(e.clientX, e.clientY, r, this.vb);
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    this.zoomBy(Math.exp(-delta * 0.0015), anchor);
  }

  // "t" toggles the tape from anywhere on the page but a text field.
  private onDocumentKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTextEntry(e.target)) return;
    if (e.key !== "t" && e.key !== "T") return;
    if (!this.view) return;
    this.tape.toggle();
    e.preventDefault();
  }

  // Escape during a gesture cancels it, before anything else hears the key.
  private onDocumentEscape(e: KeyboardEvent): void {
    if (e.key !== "Escape" || !this.gesture) return;
    const pointer = this.gesture.id;
    this.cancelGesture();
    if (this.svg.hasPointerCapture(pointer)) this.svg.releasePointerCapture(pointer);
    this.pointers.delete(pointer);
    e.preventDefault();
    e.stopPropagation();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as Element | null;
    if (target instanceof HTMLButtonElement) return;
    const unit = target?.closest?.("g.unit") as SVGGElement | null;
    const step = 60;
    switch (e.key) {
      case "+":
      case "=":
        this.zoomBy(ZOOM_STEP);
        break;
      case "-":
      case "_":
        this.zoomBy(1 / ZOOM_STEP);
        break;
      case "0":
        this.fit();
        break;
      case "ArrowLeft":
        this.panBy(step, 0);
        break;
      case "ArrowRight":
        this.panBy(-step, 0);
        break;
      case "ArrowUp":
        this.panBy(0, step);
        break;
      case "ArrowDown":
        this.panBy(0, -step);
        break;
      case "Enter":
      case " ":
        if (!unit) return;
        this.select(unit.dataset.unitId ?? null);
        break;
      case "Escape":
        // Innermost first: a gesture (the document's listener), the tape,
        // the selection.
        if (this.tape.shown) this.tape.clear();
        else if (this.tape.active) this.tape.toggle(false);
        else this.select(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}

function isTextEntry(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset"].includes(el.type);
}

function replace(slot: SVGGElement, content: SVGGElement): void {
  clear(slot);
  slot.append(content);
}
