import { Link } from "react-router";
import type { Card, Cta, HeroImage } from "~/site/sections/section-types";
import { card, container, section, secondaryButton } from "~/ui/styles";
import { hero, heroSizes, heroSrc, heroSrcSet } from "./hero/hero-image";
import { useLandingContent, useLandingPlacement } from "./use-landing-content";

/** A section's heading and introduction; either may be left empty (the section keeps its name for screen readers). */
function SectionHeading({ id, heading, intro, name }: { id: string; heading: string; intro: string; name: string }) {
  return (
    <div className="max-w-2xl">
      <h2 id={id} className={heading ? "text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl" : "sr-only"}>
        {heading || name}
      </h2>
      {intro && <p className="mt-3 text-lg text-slate-700">{intro}</p>}
    </div>
  );
}

/** The cards a section shows: those not hidden. A section with none is not shown at all. */
export const shownCards = (cards: readonly Card[]) => cards.filter((card) => card.shown);

/**
 * A long list of cards shows its first `shown` and a "Show all" that reveals the rest in the
 * same grid. A <details> holds the toggle, so it works without JavaScript; the grid's :has()
 * rule shows the hidden cards while it is open.
 */
function ShowAll({
  count,
  fewest,
  noun,
  grid,
  children,
}: {
  count: number;
  /** How many cards show folded at the narrowest width: no toggle when there are no more. */
  fewest: number;
  noun: string;
  grid: string;
  children: React.ReactNode;
}) {
  return (
    <div className="group/all">
      <ul className={`mt-10 grid gap-4 sm:gap-6 ${grid}`}>{children}</ul>
      {count > fewest && (
        <details className="mt-6 text-center">
          <summary className={`${secondaryButton} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
            <span className="group-has-[details[open]]/all:hidden">
              Show all {count} {noun}
            </span>
            <span className="hidden group-has-[details[open]]/all:inline">Show fewer {noun}</span>
          </summary>
        </details>
      )}
    </div>
  );
}

/** Cards after the first few (fewer on phones) are hidden until the section's Show all is open. */
function collapsed(index: number, shown: number, shownOnPhones = shown): string {
  if (index < shownOnPhones) return "flex";
  if (index < shown) return "flex max-sm:hidden max-sm:group-has-[details[open]]/all:flex";
  return "hidden group-has-[details[open]]/all:flex";
}

function HighlightCard({ item, number, className = "flex" }: { item: Card; number?: number; className?: string }) {
  return (
    <li className={`${card} flex-col max-sm:p-5 ${className}`}>
      {number !== undefined && (
        <span
          aria-hidden="true"
          className="mb-3 inline-flex size-10 items-center justify-center rounded-lg bg-blue-100 font-bold text-blue-800"
        >
          {String(number).padStart(2, "0")}
        </span>
      )}
      <h3 className="text-lg font-semibold text-slate-900">{item.label}</h3>
      {item.value && <p className="mt-1 font-medium text-blue-800">{item.value}</p>}
      {item.description && <p className="mt-3 leading-relaxed text-slate-700">{item.description}</p>}
    </li>
  );
}

const ctaStyles = [
  "inline-flex items-center justify-center rounded-md bg-amber-400 px-5 py-2.5 font-semibold text-slate-900 shadow-sm hover:bg-amber-300",
  "inline-flex items-center justify-center rounded-md border border-white/60 px-5 py-2.5 font-semibold text-white hover:bg-white/10",
] as const;

function HeroCta({ cta, index }: { cta: Cta; index: number }) {
  if (!cta.label || !cta.href) return null;
  const inPage = cta.href.startsWith("#");
  const external = cta.href.startsWith("https://");
  return (
    <a
      href={cta.href}
      data-scroll={inPage ? "" : undefined}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      className={ctaStyles[index]}
    >
      {cta.label}
      {external && <span className="sr-only"> (opens in a new tab)</span>}
    </a>
  );
}

/** The hero's picture: the product's illustration, one an admin uploaded, or none. */
function HeroPicture({ image, alt }: { image: HeroImage; alt: string }) {
  if (image.kind === "none") return null;
  // Sized by its width and height attributes before it loads, so nothing below it moves.
  if (image.kind === "custom") {
    return (
      <img
        src={image.src}
        srcSet={image.srcSet}
        sizes={heroSizes}
        width={image.width}
        height={image.height}
        alt={alt}
        fetchPriority="high"
        decoding="async"
        className="h-auto w-full rounded-3xl"
      />
    );
  }
  return (
    <picture>
      <source type="image/avif" srcSet={heroSrcSet("avif")} sizes={heroSizes} />
      <source type="image/webp" srcSet={heroSrcSet("webp")} sizes={heroSizes} />
      <img
        src={heroSrc(960, "webp")}
        width={hero.width}
        height={hero.height}
        alt={alt}
        fetchPriority="high"
        decoding="async"
        className="h-auto w-full rounded-3xl"
      />
    </picture>
  );
}

export function WelcomeHeader() {
  const { hero } = useLandingContent();
  const blurbs = shownCards(hero.cards);
  const withPicture = hero.image.kind !== "none";
  return (
    <section
      id="home"
      aria-labelledby="home-heading"
      className="scroll-mt-20 bg-gradient-to-br from-blue-950 via-blue-900 to-blue-800 px-4 pt-8 pb-12 text-white sm:py-20"
    >
      <div
        className={`${container} grid items-center gap-8 ${withPicture ? "lg:grid-cols-[1fr_520px] lg:gap-12" : ""}`}
      >
        <div>
          {hero.eyebrow && (
            <p className="text-sm font-semibold tracking-wide text-amber-300 uppercase sm:text-base">{hero.eyebrow}</p>
          )}
          <h1 id="home-heading" className="mt-3 text-3xl font-extrabold tracking-tight sm:mt-4 sm:text-5xl">
            {hero.heading}
          </h1>
          {hero.intro && <p className="mt-4 text-base leading-relaxed text-blue-50 sm:mt-6 sm:text-lg">{hero.intro}</p>}
          {hero.ctas.some((cta) => cta.label && cta.href) && (
            <p className="mt-6 flex flex-wrap gap-3">
              {hero.ctas.map((cta, index) => (
                <HeroCta key={index} cta={cta} index={index} />
              ))}
            </p>
          )}
        </div>
        <HeroPicture image={hero.image} alt={hero.imageAlt} />
      </div>
      {blurbs.length > 0 && (
        <div className={container}>
          <ul className="mt-10 grid gap-4 sm:mt-12 sm:gap-6 md:grid-cols-3">
            {blurbs.map((blurb, index) => (
              <li key={index} className="rounded-xl border border-white/20 bg-white/10 p-5 sm:p-6">
                <h2 className="text-xl font-bold">{blurb.label}</h2>
                {blurb.value && <p className="mt-1 font-medium text-amber-200">{blurb.value}</p>}
                {blurb.description && <p className="mt-3 leading-relaxed text-blue-50">{blurb.description}</p>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

const servicesShown = 4;

export function ServicesSection() {
  const { services: content } = useLandingContent();
  const services = shownCards(content.cards);
  if (services.length === 0) return null;
  return (
    <section id="services" aria-labelledby="services-heading" className={section}>
      <div className={container}>
        <SectionHeading id="services-heading" heading={content.heading} intro={content.intro} name="Our Services" />
        <ShowAll count={services.length} fewest={2} noun="services" grid="sm:grid-cols-2 lg:grid-cols-4">
          {services.map((service, index) => (
            <HighlightCard
              key={index}
              item={service}
              number={index + 1}
              className={collapsed(index, servicesShown, 2)}
            />
          ))}
        </ShowAll>
      </div>
    </section>
  );
}

export function FeaturesSection() {
  const { features } = useLandingContent();
  const points = shownCards(features.cards);
  if (points.length === 0) return null;
  return (
    <section id="features" aria-labelledby="features-heading" className={`${section} bg-slate-50`}>
      <div className={container}>
        <SectionHeading id="features-heading" heading={features.heading} intro={features.intro} name="Our Features" />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {points.map((point, index) => (
            <li key={index} className="flex gap-4">
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                width="28"
                height="28"
                className="mt-0.5 shrink-0 text-blue-800"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.5"
              >
                <circle cx="12" cy="12" r="10" />
                <path d="M7.5 12.5l3 3 6-6.5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{point.label}</h3>
                {point.description && <p className="mt-1 leading-relaxed text-slate-700">{point.description}</p>}
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const advantagesShown = 3;

export function AdvantageSection() {
  const { advantages } = useLandingContent();
  const features = shownCards(advantages.cards);
  if (features.length === 0) return null;
  return (
    <section id="advantage" aria-labelledby="advantage-heading" className={section}>
      <div className={container}>
        <SectionHeading
          id="advantage-heading"
          heading={advantages.heading}
          intro={advantages.intro}
          name="Your Advantage"
        />
        {/* A last card alone on its row spans the row, so no card is left orphaned. */}
        <ShowAll
          count={features.length}
          fewest={advantagesShown}
          noun="advantages"
          grid="sm:grid-cols-2 lg:grid-cols-3 sm:max-lg:[&>li:nth-child(odd):last-child]:col-span-2 lg:[&>li:nth-child(3n+1):last-child]:col-span-3"
        >
          {features.map((feature, index) => (
            <HighlightCard key={index} item={feature} className={collapsed(index, advantagesShown)} />
          ))}
        </ShowAll>
      </div>
    </section>
  );
}

export function CoursesSection() {
  const { courses, coursesSection } = useLandingContent();
  const placement = useLandingPlacement();
  return (
    <section id="training" aria-labelledby="training-heading" className={`${section} bg-slate-50`}>
      <div className={container}>
        <SectionHeading
          id="training-heading"
          heading={coursesSection.heading}
          intro={coursesSection.intro}
          name={coursesSection.heading}
        />
        {/* On phones the cards are one row that scrolls sideways, not a page of their own.
            Positioned, so the links' visually hidden text stays inside the scroller. */}
        <ul className="relative -mx-4 mt-8 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:mt-10 sm:grid sm:snap-none sm:grid-cols-2 sm:gap-6 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3">
          {courses.map((course) => (
            <li key={course.id} className={`${card} flex w-[82%] shrink-0 snap-start flex-col sm:w-auto`}>
              <h3 className="text-xl font-semibold text-slate-900">{course.title}</h3>
              <p className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="rounded-full bg-blue-100 px-3 py-0.5 text-sm font-medium text-blue-900">
                  {course.duration}
                </span>
                {course.priceText !== null && (
                  <span className="text-2xl font-bold text-slate-900">{course.priceText}</span>
                )}
              </p>
              {course.termsLine !== null && (
                <p className="mt-2 text-sm font-medium text-slate-800" data-testid="course-terms-line">
                  {course.termsLine}
                </p>
              )}
              <p className="mt-4 mb-6 leading-relaxed text-slate-700">{course.details}</p>
              <a
                href={course.registerUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={`${secondaryButton} mt-auto gap-2`}
              >
                Register Now
                <span className="sr-only"> for {course.title} (opens in a new tab)</span>
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  width="16"
                  height="16"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
                </svg>
              </a>
              {/* Said to sighted visitors; the link's own name already tells screen readers. */}
              <p aria-hidden="true" className="mt-2 text-center text-sm text-slate-600">
                Opens the payment page in a new tab
              </p>
            </li>
          ))}
        </ul>
        {/* Only a figure our records back: it appears once a batch has ended 180 days ago. */}
        {placement && (
          <p className="mt-8 text-lg text-slate-800" data-testid="placement-figure">
            <strong className="text-3xl font-bold text-slate-900">{placement.figure}</strong> {placement.detail}.
          </p>
        )}
        <p className={`${placement ? "mt-2" : "mt-8"} text-lg`}>
          <Link to="/outcomes" className="font-semibold text-blue-800 underline">
            See our placement results
          </Link>
        </p>
      </div>
    </section>
  );
}
