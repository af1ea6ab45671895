import type { z } from "zod";
import type { Actor } from "~/core/people";
import type { ActionResult, Refusal, RefusalStatus } from "~/core/result";
import { uploaded } from "../site-form.server";
import {
  aboutUsSchema,
  brandSchema,
  cardSchema,
  discardSchema,
  heroSchema,
  moveCardSchema,
  policySchema,
  sectionHeadingSchema,
  sectionLimits,
  sectionMessages,
  type Card,
  type CardSection,
} from "./section-types";
import { changeDraft, discardDraft, publishDrafts, type SectionDeps } from "./sections.server";
import { storeHeroImage, storeLogo } from "./site-images.server";

/** What the editor's forms send as their `intent`. */
export const sectionIntents = [
  "save-brand",
  "save-hero",
  "save-section-heading",
  "save-card",
  "move-card",
  "save-about-us",
  "save-policy",
  "discard-draft",
  "publish",
] as const;
export type SectionIntent = (typeof sectionIntents)[number];

const refusal = (status: RefusalStatus, message: string): Refusal => ({ ok: false, status, message });

function parse<T extends z.ZodType>(
  schema: T,
  fields: Record<string, string>,
): { ok: true; data: z.infer<T> } | Refusal {
  const parsed = schema.safeParse(fields);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : refusal(400, parsed.error.issues[0]?.message ?? "Invalid request.");
}

/** A card list's change: one card saved (or added), or moved. */
function changedCards(section: CardSection, change: { index?: number; card?: Card; direction?: "up" | "down" }) {
  const cards = [...section.cards];
  const { index, card, direction } = change;
  if (card && index === undefined) {
    if (cards.length >= sectionLimits.cards) return refusal(400, sectionMessages.tooManyCards);
    return { cards: [...cards, card], detail: `card "${card.label}" added` };
  }
  if (index === undefined || index >= cards.length) return refusal(404, sectionMessages.noSuchCard);
  if (card) {
    cards[index] = card;
    return { cards, detail: `card "${card.label}" changed${card.shown ? "" : ", hidden"}` };
  }
  const to = direction === "up" ? index - 1 : index + 1;
  if (to < 0 || to >= cards.length) return { cards, detail: `card "${cards[index]!.label}" left in place` };
  [cards[index], cards[to]] = [cards[to]!, cards[index]!];
  return { cards, detail: `card "${cards[to]!.label}" moved ${direction}` };
}

/** The editor's brand and section changes (admins; the page's gate has run). */
export async function sectionAction(
  deps: SectionDeps,
  actor: Actor,
  intent: SectionIntent,
  form: FormData,
  fields: Record<string, string>,
): Promise<ActionResult> {
  switch (intent) {
    case "save-brand": {
      const parsed = parse(brandSchema, fields);
      if (!parsed.ok) return parsed;
      const bytes = await uploaded(form, "logo");
      if (bytes === "not-a-file") return refusal(415, sectionMessages.notAnImage);
      const stored = bytes ? await storeLogo(deps.db, bytes) : null;
      if (stored && !stored.ok) return stored;
      const { removeLogo, whatsapp, colour, ...details } = parsed.data;
      return changeDraft(deps, actor, "brand", (current) => ({
        ok: true,
        next: {
          ...details,
          whatsapp: whatsapp === "" ? null : whatsapp.replace(/\D/g, ""),
          colour: colour === "" ? null : colour.toLowerCase(),
          logo: stored ? stored.logo : removeLogo ? null : current.logo,
        },
        detail: stored ? "details and a new logo" : removeLogo ? "details, logo removed" : "details",
      }));
    }
    case "save-hero": {
      const parsed = parse(heroSchema, fields);
      if (!parsed.ok) return parsed;
      const bytes = await uploaded(form, "heroImage");
      if (bytes === "not-a-file") return refusal(415, sectionMessages.notAnImage);
      const stored = bytes ? await storeHeroImage(deps.db, bytes) : null;
      if (stored && !stored.ok) return stored;
      const { imageMode, imageAlt, primaryLabel, primaryHref, secondaryLabel, secondaryHref, ...texts } = parsed.data;
      return changeDraft(deps, actor, "hero", (current) => {
        const image = stored ? stored.image : imageMode === "keep" ? current.image : { kind: imageMode };
        if (image.kind !== "none" && imageAlt === "") return refusal(400, sectionMessages.imageAltRequired);
        return {
          ok: true,
          next: {
            ...current,
            ...texts,
            image,
            imageAlt,
            ctas: [
              { label: primaryLabel, href: primaryHref },
              { label: secondaryLabel, href: secondaryHref },
            ],
          },
          detail: stored ? "texts and a new picture" : "texts",
        };
      });
    }
    case "save-section-heading": {
      const parsed = parse(sectionHeadingSchema, fields);
      if (!parsed.ok) return parsed;
      const { section, heading, intro } = parsed.data;
      return changeDraft(deps, actor, section, (current) => ({
        ok: true,
        next: { ...current, heading, intro },
        detail: "heading and introduction",
      }));
    }
    case "save-card":
    case "move-card": {
      const parsed = intent === "save-card" ? parse(cardSchema, fields) : parse(moveCardSchema, fields);
      if (!parsed.ok) return parsed;
      const data = parsed.data as z.infer<typeof cardSchema> & Partial<z.infer<typeof moveCardSchema>>;
      const card =
        intent === "save-card"
          ? { label: data.label, value: data.value, description: data.description, shown: data.shown === "on" }
          : undefined;
      return changeDraft(deps, actor, data.section, (current) => {
        const result = changedCards(current, { index: data.index, card, direction: data.direction });
        if ("ok" in result) return result;
        return { ok: true, next: { ...current, cards: result.cards }, detail: result.detail };
      });
    }
    case "save-about-us": {
      const parsed = parse(aboutUsSchema, fields);
      if (!parsed.ok) return parsed;
      return changeDraft(deps, actor, "about-us", () => ({ ok: true, next: parsed.data, detail: "text" }));
    }
    case "save-policy": {
      const parsed = parse(policySchema, fields);
      if (!parsed.ok) return parsed;
      const { policy, body } = parsed.data;
      return changeDraft(deps, actor, policy, (current) => ({ ok: true, next: { ...current, body }, detail: "text" }));
    }
    case "discard-draft": {
      const parsed = parse(discardSchema, fields);
      if (!parsed.ok) return parsed;
      return discardDraft(deps, actor, parsed.data.section);
    }
    case "publish":
      return publishDrafts(deps, actor);
  }
}
