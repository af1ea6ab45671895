import { Link } from "react-router";
import type { Highlight } from "~/content/site-content";
import { card, container, section, secondaryButton } from "~/ui/styles";
import { useSiteInfo } from "~/site/use-site-info";
import { useLandingContent } from "./use-landing-content";

function SectionHeading({ id, heading, intro }: { id: string; heading: string; intro: string }) {
  return (
    <div className="max-w-2xl">
      <h2 id={id} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {heading}
      </h2>
      <p className="mt-3 text-lg text-slate-700">{intro}</p>
    </div>
  );
}

function HighlightCard({ item, number }: { item: Highlight; number?: number }) {
  return (
    <li className={`${card} flex flex-col`}>
      {number !== undefined && (
        <span
          aria-hidden="true"
          className="mb-4 inline-flex size-10 items-center justify-center rounded-lg bg-blue-100 font-bold text-blue-800"
        >
          {String(number).padStart(2, "0")}
        </span>
      )}
      <h3 className="text-lg font-semibold text-slate-900">{item.label}</h3>
      <p className="mt-1 font-medium text-blue-800">{item.value}</p>
      <p className="mt-3 leading-relaxed text-slate-700">{item.description}</p>
    </li>
  );
}

export function WelcomeHeader() {
  const { welcome } = useLandingContent();
  return (
    <section
      id="home"
      aria-labelledby="home-heading"
      className="scroll-mt-20 bg-gradient-to-br from-blue-950 via-blue-900 to-blue-800 px-4 py-16 text-white sm:py-24"
    >
      <div className={container}>
        <p className="font-semibold tracking-wide text-amber-300 uppercase">{welcome.eyebrow}</p>
        <h1 id="home-heading" className="mt-4 max-w-4xl text-3xl font-extrabold tracking-tight sm:text-5xl">
          {welcome.heading}
        </h1>
        <p className="mt-6 max-w-3xl text-lg leading-relaxed text-blue-50">{welcome.intro}</p>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {welcome.blurbs.map((blurb) => (
            <li key={blurb.label} className="rounded-xl border border-white/20 bg-white/10 p-6">
              <h2 className="text-xl font-bold">{blurb.label}</h2>
              <p className="mt-1 font-medium text-amber-200">{blurb.value}</p>
              <p className="mt-3 leading-relaxed text-blue-50">{blurb.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function ServicesSection() {
  const { services, servicesSection } = useLandingContent();
  return (
    <section id="services" aria-labelledby="services-heading" className={section}>
      <div className={container}>
        <SectionHeading id="services-heading" heading={servicesSection.heading} intro={servicesSection.intro} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {services.map((service, index) => (
            <HighlightCard key={service.label} item={service} number={index + 1} />
          ))}
        </ul>
      </div>
    </section>
  );
}

export function FeaturesSection() {
  const { ourFeatures } = useLandingContent();
  return (
    <section id="features" aria-labelledby="features-heading" className={`${section} bg-slate-50`}>
      <div className={container}>
        <SectionHeading id="features-heading" heading={ourFeatures.heading} intro={ourFeatures.intro} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {ourFeatures.points.map((point) => (
            <li key={point.title} className="flex gap-4">
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
                <h3 className="text-lg font-semibold text-slate-900">{point.title}</h3>
                <p className="mt-1 leading-relaxed text-slate-700">{point.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function AdvantageSection() {
  const { features, advantageSection } = useLandingContent();
  return (
    <section id="advantage" aria-labelledby="advantage-heading" className={section}>
      <div className={container}>
        <SectionHeading id="advantage-heading" heading={advantageSection.heading} intro={advantageSection.intro} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
            <HighlightCard key={feature.label} item={feature} />
          ))}
        </ul>
      </div>
    </section>
  );
}

export function CoursesSection() {
  const { paymentUrl } = useSiteInfo();
  const { courses, coursesSection } = useLandingContent();
  return (
    <section id="training" aria-labelledby="training-heading" className={`${section} bg-slate-50`}>
      <div className={container}>
        <SectionHeading id="training-heading" heading={coursesSection.heading} intro={coursesSection.intro} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((course) => (
            <li key={course.id} className={`${card} flex flex-col`}>
              <h3 className="text-xl font-semibold text-slate-900">{course.title}</h3>
              <p className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="rounded-full bg-blue-100 px-3 py-0.5 text-sm font-medium text-blue-900">
                  {course.duration}
                </span>
                {course.priceText !== null && (
                  <span className="text-2xl font-bold text-slate-900">{course.priceText}</span>
                )}
              </p>
              <p className="mt-4 mb-6 leading-relaxed text-slate-700">{course.details}</p>
              <a href={paymentUrl} target="_blank" rel="noopener noreferrer" className={`${secondaryButton} mt-auto`}>
                Register Now
                <span className="sr-only"> for {course.title} (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-lg">
          <Link to="/outcomes" className="font-semibold text-blue-800 underline">
            See our placement results
          </Link>
        </p>
      </div>
    </section>
  );
}
