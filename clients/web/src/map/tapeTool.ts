// The measuring tape on the map: a toggle button (and the "t" key, which the
// map passes on), then a press and drag lays the tape from where it began to
// the pointer, drawn with its length in the ruleset's unit (tape.ts). The
// tape stays until the next press, Escape or the toggle. Nothing is sent.
import { clear, h, s } from "../ui/dom";
import { drawTape } from "./drawTools";
import type { Vec } from "./geometry";
import type { TableFrame } from "./orientation";
import type { MapGesture } from "./tableMap";
import { lengthLabel, tapeLength, type Tape } from "./tape";

export class TapeTool {
  readonly button: HTMLButtonElement;
  readonly readout: HTMLElement;
  private on = false;
  private tape: Tape | null = null;

  constructor(
    private readonly layer: SVGGElement,
    private readonly frame: () => TableFrame,
    private readonly unit: (n: number) => string,
  ) {
    this.button = h(
      "button",
      {
        type: "button",
        class: "map-button tape-toggle",
        title: "Measuring tape (t)",
        "aria-label": "Measuring tape (t)",
        "aria-pressed": "false",
        "aria-keyshortcuts": "t",
        "data-testid": "tape-toggle",
      },
      rulerIcon(),
    );
    this.button.addEventListener("click", () => this.toggle());
    this.readout = h("div", { class: "map-readout tape-readout", role: "status", "aria-live": "polite", hidden: true, "data-testid": "tape-readout" });
  }

  get active(): boolean {
    return this.on;
  }

  get shown(): boolean {
    return this.tape !== null;
  }

  toggle(on = !this.on): void {
    this.on = on;
    this.button.setAttribute("aria-pressed", String(on));
    this.button.classList.toggle("on", on);
    if (!on) this.clear();
    else this.showText("Tape: press on the map and drag to measure.");
  }

  // Takes a press on the map while the tape is on: the tape starts there.
  press(at: Vec): MapGesture | null {
    if (!this.on) return null;
    const from = at;
    return {
      move: (to) => this.lay({ from, to }),
      end: (to) => this.lay({ from, to }),
      cancel: () => {
        /* a press without a drag keeps the tape shown */
      },
    };
  }

  clear(): void {
    this.tape = null;
    clear(this.layer);
    if (this.on) this.showText("Tape: press on the map and drag to measure.");
    else this.readout.hidden = true;
  }

  // Drawn again after the view or the turn of the table changed.
  redraw(): void {
    if (this.tape) this.lay(this.tape);
  }

  private lay(t: Tape): void {
    this.tape = t;
    const label = lengthLabel(tapeLength(t), this.unit);
    clear(this.layer);
    this.layer.append(drawTape(t, this.frame(), label));
    this.showText(`Tape: ${label}`);
    this.readout.dataset.length = label;
  }

  private showText(text: string): void {
    this.readout.hidden = false;
    this.readout.textContent = text;
    if (!this.tape) delete this.readout.dataset.length;
  }
}

// A ruler: drawn, so it shows without an emoji font.
function rulerIcon(): SVGSVGElement {
  const icon = s("svg", { class: "tape-icon", viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" });
  icon.append(s("rect", { x: 2, y: 8, width: 20, height: 8, rx: 1, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }));
  for (const [x, long] of [[6, false], [10, true], [14, false], [18, true]] as const) {
    icon.append(s("line", { x1: x, y1: 8, x2: x, y2: long ? 13 : 11, stroke: "currentColor", "stroke-width": 1.4 }));
  }
  return icon;
}
