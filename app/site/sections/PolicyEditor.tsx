import { useId } from "react";
import { Link } from "react-router";
import { ActionForm } from "~/ui/ActionForm";
import { controlClass, labelClass } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { editorPanel } from "./BrandEditor";
import {
  discardSchema,
  policySchema,
  sectionLimits,
  sectionNames,
  type PolicyKey,
  type PolicySection,
  type SectionKey,
} from "./section-types";

/** One policy page's text, in the editor's markup. */
export function PolicyEditor({ policy, content }: { policy: PolicyKey; content: PolicySection }) {
  const id = useId();
  return (
    <ActionForm
      intent="save-policy"
      schema={policySchema}
      resetOnSuccess={false}
      label={sectionNames[policy]}
      className={editorPanel}
    >
      <input type="hidden" name="policy" value={policy} />
      <div>
        <label htmlFor={`${id}-body`} className={labelClass}>
          {sectionNames[policy]} (last updated {content.updated}; publishing a change sets today)
        </label>
        <textarea
          id={`${id}-body`}
          key={content.body}
          name="body"
          rows={14}
          maxLength={sectionLimits.policy}
          defaultValue={content.body}
          aria-describedby={`${id}-help`}
          className={`${controlClass} font-mono text-sm`}
        />
        <p id={`${id}-help`} className="mt-1 text-sm text-slate-700">
          A line starting <code>## </code> is a heading (<code>### </code> a smaller one), <code>- </code> a list item,{" "}
          <code>1. </code> a numbered one; a blank line starts a paragraph. <code>**words**</code> are bold,{" "}
          <code>[words](/RefundPolicy)</code> a link. <code>{"{name}"}</code>, <code>{"{email}"}</code>,{" "}
          <code>{"{phone}"}</code> and <code>{"{address}"}</code> are the brand's details
          {policy === "privacy" && (
            <>
              ; a line <code>{"{stored-data-table}"}</code> is the table of what the database stores
            </>
          )}
          . Nothing else is read as markup.
        </p>
      </div>
      <button type="submit" className={primaryButton}>
        Save policy draft
      </button>
    </ActionForm>
  );
}

/** What is drafted, the preview, Discard for each draft and Publish for all. */
export function PublishPanel({ drafts }: { drafts: SectionKey[] }) {
  return (
    <div className={`${editorPanel} border-amber-300 bg-amber-50`}>
      {drafts.length === 0 ? (
        <p className="text-slate-900">No drafts: visitors see what this page shows.</p>
      ) : (
        <>
          <p className="font-semibold text-slate-900">Drafts not yet published:</p>
          <ul className="space-y-2">
            {drafts.map((key) => (
              <li key={key} className="flex flex-wrap items-center gap-3">
                <span className="text-slate-900">{sectionNames[key]}</span>
                <ActionForm
                  intent="discard-draft"
                  schema={discardSchema}
                  label={`Discard the draft of ${sectionNames[key]}`}
                  className="inline"
                >
                  <input type="hidden" name="section" value={key} />
                  <button type="submit" className="text-sm font-semibold text-red-800 underline">
                    Discard<span className="sr-only"> the draft of {sectionNames[key]}</span>
                  </button>
                </ActionForm>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="flex flex-wrap gap-3">
        <Link to="/staff/site/preview" className={secondaryButton}>
          Preview
        </Link>
        {drafts.length > 0 && (
          <ActionForm intent="publish" label="Publish" className="inline">
            <button type="submit" className={primaryButton}>
              Publish
            </button>
          </ActionForm>
        )}
      </div>
    </div>
  );
}
