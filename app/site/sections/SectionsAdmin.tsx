import { useId } from "react";
import { BrandEditor } from "./BrandEditor";
import { PolicyEditor, PublishPanel } from "./PolicyEditor";
import { AboutUsEditor, CardSectionEditor, HeroEditor } from "./SectionsEditor";
import { policyKeys, sectionNames, type SectionKey, type SiteSections } from "./section-types";

function Part({ title, drafted, children }: { title: string; drafted: boolean; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-10">
      <h3 id={id} className="text-xl font-bold text-slate-900">
        {title} {drafted && <span className="text-base font-semibold text-amber-800">(draft, not yet published)</span>}
      </h3>
      {children}
    </section>
  );
}

/** The brand and every section of the public site: drafts, previewed, then published together. */
export function SectionsAdmin({ sections, drafts }: { sections: SiteSections; drafts: SectionKey[] }) {
  const id = useId();
  const part = (key: SectionKey) => ({ title: sectionNames[key], drafted: drafts.includes(key) });
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        Brand, sections and policies
      </h2>
      <p className="mt-2 max-w-2xl text-slate-700">
        Changes here are drafts: preview them, then publish them all at once. A section left empty is not shown.
      </p>
      <PublishPanel drafts={drafts} />
      <Part {...part("brand")}>
        <BrandEditor brand={sections.brand} />
      </Part>
      <Part {...part("hero")}>
        <HeroEditor hero={sections.hero} />
      </Part>
      <Part {...part("services")}>
        <CardSectionEditor section="services" content={sections.services} noun="a service" />
      </Part>
      <Part {...part("features")}>
        <CardSectionEditor section="features" content={sections.features} noun="a feature" withValue={false} />
      </Part>
      <Part {...part("advantages")}>
        <CardSectionEditor section="advantages" content={sections.advantages} noun="an advantage" />
      </Part>
      <Part {...part("about-us")}>
        <AboutUsEditor aboutUs={sections["about-us"]} />
      </Part>
      {policyKeys.map((key) => (
        <Part key={key} {...part(key)}>
          <PolicyEditor policy={key} content={sections[key]} />
        </Part>
      ))}
    </section>
  );
}
