// How each kind of terrain and unit is drawn. Colours live in styles.css
// (classes below); this module only names them, orders the layers, and shades
// hills by elevation.
import { Knowledge, TerrainKind, UnitKind } from "@gen/galloper/v1/game_pb";

export interface TerrainStyle {
  label: string;
  cls: string;
  // Drawing order: lower first. Areas under water under roads under obstacles.
  layer: number;
  // Stroke width in table units for linear features.
  width: number;
}

export const TERRAIN_STYLES: Record<TerrainKind, TerrainStyle> = {
  [TerrainKind.UNSPECIFIED]: { label: "Other", cls: "t-other", layer: 5, width: 0.2 },
  [TerrainKind.HILL]: { label: "Hill (darker is higher)", cls: "t-hill", layer: 0, width: 0.15 },
  [TerrainKind.ROUGH]: { label: "Rough ground", cls: "t-rough", layer: 1, width: 0.1 },
  [TerrainKind.MARSH]: { label: "Marsh", cls: "t-marsh", layer: 1, width: 0.1 },
  [TerrainKind.WOOD]: { label: "Wood", cls: "t-wood", layer: 2, width: 0.12 },
  [TerrainKind.TOWN]: { label: "Town", cls: "t-town", layer: 2, width: 0.12 },
  [TerrainKind.RIVER]: { label: "River", cls: "t-river", layer: 3, width: 1.2 },
  [TerrainKind.STREAM]: { label: "Stream", cls: "t-stream", layer: 3, width: 0.5 },
  [TerrainKind.ROAD]: { label: "Road", cls: "t-road", layer: 4, width: 0.7 },
  [TerrainKind.BRIDGE]: { label: "Bridge", cls: "t-bridge", layer: 5, width: 1.4 },
  [TerrainKind.FORD]: { label: "Ford", cls: "t-ford", layer: 5, width: 1.4 },
  [TerrainKind.HEDGE]: { label: "Hedge", cls: "t-hedge", layer: 6, width: 0.35 },
  [TerrainKind.WALL]: { label: "Wall", cls: "t-wall", layer: 6, width: 0.3 },
  [TerrainKind.DITCH]: { label: "Ditch", cls: "t-ditch", layer: 6, width: 0.3 },
  [TerrainKind.FIELDWORKS]: { label: "Fieldworks", cls: "t-fieldworks", layer: 6, width: 0.45 },
  [TerrainKind.FORTIFICATION]: { label: "Fortification", cls: "t-fortification", layer: 6, width: 0.6 },
  [TerrainKind.CHEVAUX_DE_FRISE]: { label: "Chevaux de frise", cls: "t-chevaux", layer: 6, width: 0.35 },
};

export function terrainStyle(kind: TerrainKind): TerrainStyle {
  return TERRAIN_STYLES[kind] ?? TERRAIN_STYLES[TerrainKind.UNSPECIFIED];
}

// Hill fill: from a light tan at the plain to a dark brown at the highest
// hill on the table (at least 2 units up, so a lone low hill stays mid-tone),
// so relative height reads at a glance.
const HILL_LOW = [0xe8, 0xdc, 0xb4];
const HILL_HIGH = [0x9c, 0x7a, 0x4c];

export function hillFill(elevation: number, maxElevation: number): string {
  const top = Math.max(2, maxElevation);
  const t = Math.min(1, Math.max(0, elevation / top));
  const c = HILL_LOW.map((lo, i) => Math.round(lo + (HILL_HIGH[i]! - lo) * t));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

// Side colours by the side's order in GameView.sides.
export const SIDE_COLOURS = ["#b8322a", "#2856a3", "#2f8a4c", "#7b3fa0", "#b07a12"];

export function sideColour(sideId: string, sides: readonly { id: string }[]): string {
  const i = sides.findIndex((s) => s.id === sideId);
  if (i >= 0) return SIDE_COLOURS[i % SIDE_COLOURS.length]!;
  let hash = 0;
  for (const ch of sideId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return SIDE_COLOURS[hash % SIDE_COLOURS.length]!;
}

export const KNOWLEDGE_CLASS: Record<Knowledge, string> = {
  [Knowledge.UNSPECIFIED]: "unknown",
  [Knowledge.OWN]: "own",
  [Knowledge.FRIENDLY]: "friendly",
  [Knowledge.SEEN]: "seen",
  [Knowledge.LAST_SEEN]: "last-seen",
  [Knowledge.UMPIRE]: "umpire",
};

export const KNOWLEDGE_LABEL: Record<Knowledge, string> = {
  [Knowledge.UNSPECIFIED]: "Unknown",
  [Knowledge.OWN]: "Your troops",
  [Knowledge.FRIENDLY]: "Friendly (another seat)",
  [Knowledge.SEEN]: "Enemy in sight",
  [Knowledge.LAST_SEEN]: "Enemy last seen (ghost)",
  [Knowledge.UMPIRE]: "Umpire's view",
};

export const UNIT_KIND_LABEL: Record<UnitKind, string> = {
  [UnitKind.UNSPECIFIED]: "Unit",
  [UnitKind.BRIGADE]: "Brigade",
  [UnitKind.GUN]: "Gun",
  [UnitKind.LEADER]: "Leader",
  [UnitKind.MESSENGER]: "Messenger",
  [UnitKind.MARKER]: "Marker",
};

// Ghosts under everything, then troops, then leaders and messengers on top.
export function unitLayer(kind: UnitKind, knowledge: Knowledge): number {
  if (knowledge === Knowledge.LAST_SEEN) return 0;
  if (kind === UnitKind.LEADER || kind === UnitKind.MESSENGER) return 3;
  if (kind === UnitKind.MARKER) return 2;
  return 1;
}
