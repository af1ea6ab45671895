// WCAG 2 contrast: the brand colour carries white text (buttons), so it must reach AA's 4.5:1.

export const minimumContrast = 4.5;

/** `#rrggbb` (or `#rgb`) as red, green and blue from 0 to 255; null when it is not one. */
export function parseHexColour(value: string): [number, number, number] | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join("") : match[1]!;
  return [0, 2, 4].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)) as [number, number, number];
}

/** WCAG 2's relative luminance of an sRGB colour. */
function luminance([r, g, b]: [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of white text on this colour (1 to 21), or null for no colour. */
export function contrastWithWhite(value: string): number | null {
  const rgb = parseHexColour(value);
  if (!rgb) return null;
  return 1.05 / (luminance(rgb) + 0.05);
}

/** A ratio as people read it: "3.2:1" (rounded down, so 4.49 never shows as 4.5). */
export function ratioText(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}
