import type { Config } from "~/config/config.server";
import {
  aboutUs,
  advantageSection,
  features,
  ourFeatures,
  services,
  servicesSection,
  welcome,
} from "~/content/site-content";
import { privacyPolicy, refundPolicy, termsAndConditions } from "~/content/policies";
import type { Brand, Card, SiteSections } from "./section-types";

const cards = (items: readonly { label: string; value: string; description: string }[]): Card[] =>
  items.map(({ label, value, description }) => ({ label, value, description, shown: true }));

/** The brand a first start stores: the configuration's SITE_* variables. */
export function brandFromConfig(site: Config["site"]): Brand {
  return { ...site, colour: null, logo: null };
}

/** What a fresh install shows: the product's own copy (the specification's content). */
export function defaultSections(site: Config["site"]): SiteSections {
  return {
    brand: brandFromConfig(site),
    hero: {
      eyebrow: welcome.eyebrow,
      heading: welcome.heading,
      intro: welcome.intro,
      cards: cards(welcome.blurbs),
      image: { kind: "built-in" },
      imageAlt: "A laptop with code on its screen beside a growth chart, an offer letter and a graduation cap",
      ctas: [
        { label: "See the courses", href: "#training" },
        { label: "Talk to us", href: "#contact" },
      ],
    },
    services: { heading: servicesSection.heading, intro: servicesSection.intro, cards: cards(services) },
    features: {
      heading: ourFeatures.heading,
      intro: ourFeatures.intro,
      cards: ourFeatures.points.map((point) => ({
        label: point.title,
        value: "",
        description: point.text,
        shown: true,
      })),
    },
    advantages: { heading: advantageSection.heading, intro: advantageSection.intro, cards: cards(features) },
    "about-us": { heading: aboutUs.heading, body: aboutUs.paragraphs.join("\n\n") },
    privacy: { ...privacyPolicy },
    refund: { ...refundPolicy },
    terms: { ...termsAndConditions },
  };
}
