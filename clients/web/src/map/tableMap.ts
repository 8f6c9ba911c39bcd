// The interactive map: an SVG of the table, pan (drag, arrows), zoom (wheel,
// pinch, buttons, +/-), select a unit (click or tap, or Tab then Enter/Space).
// A seat's map is turned to its side's own edge (orientation.ts); names and
// markers keep their size on screen and names are placed clear of each other
// (declutter.ts) at every zoom.
import type { GameView } from "@gen/galloper/v1/game_pb";
import type { Vocabulary } from "../game/ruleset";
import { clear, h, s } from "../ui/dom";
import { declutterLabels, labelPriority, labelSize, type Box, type LabelRequest } from "./declutter";
import { drawDefs, drawTable, drawTerrain, drawUnits, unitRects } from "./draw";
import { drawGhost, drawRanges } from "./drawPreview";
import { decideTurn, frameOf, toScreen, toTable, turnKey, type TableFrame } from "./orientation";
import type { Placement, Preview } from "./preview";
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

export interface TableMapOptions {
  onSelect: (unitId: string | null) => void;
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
      "aria-label": "Table map. Drag or arrow keys to pan, wheel or plus/minus to zoom, Tab to a unit and Enter to select it.",
      tabindex: 0,
      preserveAspectRatio: "xMidYMid meet",
    });
    this.tableLayer = s("g", {});
    this.terrainLayer = s("g", {});
    this.unitLayer = s("g", {});
    this.rangeLayer = s("g", { class: "range-layer" });
    this.ghostLayer = s("g", { class: "ghost-layer" });
    this.svg.append(drawDefs(), this.tableLayer, this.terrainLayer, this.rangeLayer, this.unitLayer, this.ghostLayer);

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
    );
    this.scaleBar = h("div", { class: "scale-bar", "aria-hidden": "true" });
    this.north = h("div", { class: "north-arrow", "data-testid": "north-arrow" });
    this.showNorth();
    this.root = h("div", { class: "map-wrap" }, this.svg, controls, this.north, this.scaleBar);

    this.svg.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.svg.addEventListener("pointercancel", (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
      this.drag = null;
      this.svg.classList.remove("dragging");
    });
    this.svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    this.root.addEventListener("keydown", (e) => this.onKey(e));

    this.resizeObserver =
      typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => this.onResize());
    this.resizeObserver?.observe(this.svg);
  }

  destroy(): void {
    this.resizeObserver?.disconnect();
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
      // A second finger: the drag becomes a pinch.
      this.drag = null;
      for (const id of this.pointers.keys()) {
        if (!this.svg.hasPointerCapture(id)) this.svg.setPointerCapture(id);
      }
      this.pinch = this.pinchNow();
      return;
    }
    if (this.pointers.size > 2 || this.pinch) return;
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
        this.select(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}

function replace(slot: SVGGElement, content: SVGGElement): void {
  clear(slot);
  slot.append(content);
}
