import { container } from "~/ui/styles";
import { useLandingProof } from "./use-landing-content";

/**
 * Learners' words and the companies that hire them, as admins publish them (/staff/site). Only
 * testimonials with recorded consent reach here; with nothing published, nothing shows.
 */
export function ProofBlock() {
  const proof = useLandingProof();
  if (!proof || (proof.testimonials.length === 0 && proof.partners.length === 0)) return null;
  return (
    <div id="results" aria-labelledby="results-heading" role="region" className="scroll-mt-20 px-4 py-12 sm:py-20">
      <div className={container}>
        <h2 id="results-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          Learners who got there
        </h2>
        {proof.testimonials.length > 0 && (
          <ul className="mt-8 grid gap-4 sm:gap-6 md:grid-cols-2 lg:grid-cols-3">
            {proof.testimonials.map((testimonial) => (
              <li key={testimonial.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
                <figure>
                  <blockquote className="leading-relaxed text-slate-800">“{testimonial.quote}”</blockquote>
                  <figcaption className="mt-4 flex items-center gap-3">
                    {testimonial.photo && (
                      <img
                        src={testimonial.photo}
                        alt=""
                        width={48}
                        height={48}
                        loading="lazy"
                        className="size-12 rounded-full object-cover"
                      />
                    )}
                    <span>
                      <span className="block font-semibold text-slate-900">{testimonial.name}</span>
                      <span className="block text-sm text-slate-700">{testimonial.course}</span>
                    </span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        )}
        {proof.partners.length > 0 && (
          <>
            <h3 className="mt-10 text-lg font-semibold text-slate-900">Our learners work at</h3>
            <ul className="mt-4 flex flex-wrap items-center gap-x-8 gap-y-4">
              {proof.partners.map((partner) => (
                <li key={partner.id}>
                  <img
                    src={partner.logo}
                    alt={partner.name}
                    height={40}
                    loading="lazy"
                    className="h-10 w-auto max-w-40 object-contain"
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
