// Table geometry for drawing. Table coordinates: origin at the south-west
// corner, x east, y north, in table units (inches). SVG coordinates: the same
// units, y down; orientation.ts maps one to the other (north up, or the table
// turned to a seat's own edge).
// Facing: degrees clockwise from north (0 faces +y, 90 faces +x).

export interface Vec {
  x: number;
  y: number;
}

export interface RectLike {
  center?: Vec | undefined;
  width: number; // along the front
  depth: number;
  facingDeg: number;
}

// A rectangle of the SVG user space (table units, y down).
export interface ViewBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

const DEG = Math.PI / 180;

// Unit vector the facing points to, in table coordinates.
export function facingVector(facingDeg: number): Vec {
  return { x: Math.sin(facingDeg * DEG), y: Math.cos(facingDeg * DEG) };
}

// Unit vector to the right of the facing (along the front, left to right).
export function rightVector(facingDeg: number): Vec {
  return { x: Math.cos(facingDeg * DEG), y: -Math.sin(facingDeg * DEG) };
}

// Corners in table coordinates: front-left, front-right, back-right, back-left.
export function rectCorners(r: RectLike): [Vec, Vec, Vec, Vec] {
  const c = r.center ?? { x: 0, y: 0 };
  const f = facingVector(r.facingDeg);
  const s = rightVector(r.facingDeg);
  const hd = r.depth / 2;
  const hw = r.width / 2;
  const at = (front: number, right: number): Vec => ({
    x: c.x + f.x * front + s.x * right,
    y: c.y + f.y * front + s.y * right,
  });
  return [at(hd, -hw), at(hd, hw), at(-hd, hw), at(-hd, -hw)];
}

export function centroid(points: readonly Vec[]): Vec {
  if (points.length === 0) return { x: 0, y: 0 };
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

export function bounds(points: readonly Vec[]): ViewBox {
  if (points.length === 0) return { x: 0, y: 0, w: 0, h: 0 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return { x: minX, y: minY, w: maxX - minX, h: maxY - minY };
}

export function fmt(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

// The whole table plus a margin, widened along one axis so the box has the
// viewport's aspect ratio (keeps the client-to-SVG mapping linear).
export function fitViewBox(tableWidth: number, tableDepth: number, viewportAspect: number, margin = 1): ViewBox {
  let w = tableWidth + 2 * margin;
  let h = tableDepth + 2 * margin;
  const aspect = viewportAspect > 0 && Number.isFinite(viewportAspect) ? viewportAspect : w / h;
  if (w / h < aspect) w = h * aspect;
  else h = w / aspect;
  return { x: tableWidth / 2 - w / 2, y: tableDepth / 2 - h / 2, w, h };
}

// Zooms by `factor` (>1 zooms in) keeping `anchor` (SVG coordinates) still.
// The width is clamped to [minW, maxW].
export function zoomViewBox(vb: ViewBox, factor: number, anchor: Vec, minW: number, maxW: number): ViewBox {
  const w = clamp(vb.w / factor, minW, maxW);
  const k = w / vb.w;
  const h = vb.h * k;
  return {
    x: anchor.x - (anchor.x - vb.x) * k,
    y: anchor.y - (anchor.y - vb.y) * k,
    w,
    h,
  };
}

// Moves the view with a drag of (dxPx, dyPx) screen pixels: the content
// follows the pointer.
export function panViewBox(vb: ViewBox, dxPx: number, dyPx: number, viewportWidthPx: number): ViewBox {
  const unitsPerPx = vb.w / viewportWidthPx;
  return { ...vb, x: vb.x - dxPx * unitsPerPx, y: vb.y - dyPx * unitsPerPx };
}

// A point on the SVG element (client pixels) to SVG user coordinates, for a
// viewBox whose aspect matches the element.
export function clientToSvg(
  clientX: number,
  clientY: number,
  el: { left: number; top: number; width: number; height: number },
  vb: ViewBox,
): Vec {
  return {
    x: vb.x + ((clientX - el.left) / el.width) * vb.w,
    y: vb.y + ((clientY - el.top) / el.height) * vb.h,
  };
}

// Re-fits the height of a view box to a new viewport aspect, keeping its
// centre and width (used when the window resizes).
export function withAspect(vb: ViewBox, aspect: number): ViewBox {
  if (!(aspect > 0) || !Number.isFinite(aspect)) return vb;
  const h = vb.w / aspect;
  return { x: vb.x, y: vb.y + (vb.h - h) / 2, w: vb.w, h };
}

export function viewBoxAttr(vb: ViewBox): string {
  return `${fmt(vb.x)} ${fmt(vb.y)} ${fmt(vb.w)} ${fmt(vb.h)}`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
