/**
 * A small seeded generator (mulberry32), so one seed gives the same records every time: the
 * seed scripts' learners and their placement records draw from it.
 */
export function seededRandom(seed: number, idVariant: "a" | "b") {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  /**
   * A UUID-shaped id (cheaper than randomUUID a million times, and seeded). Each seed has its own
   * variant digit (`idVariant`), so that the ids of two seeds never meet.
   */
  const id = () => {
    const hex = (n: number) => Array.from({ length: n }, () => int(16).toString(16)).join("");
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${idVariant}${hex(3)}-${hex(12)}`;
  };
  return { next, int, pick, id };
}

export type SeedRandom = ReturnType<typeof seededRandom>;
