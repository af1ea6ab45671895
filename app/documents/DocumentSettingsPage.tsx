import { useId, useRef, useState } from "react";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { ErrorLine, Field, controlClass, labelClass, useFormProblem } from "~/ui/form";
import { primaryButton, secondaryButton } from "~/ui/styles";
import { checkFields, useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";
import type { loadDocumentSettingsPage } from "./settings-page.server";
import { settingsMessages, settingsSchema, signatureAccept, signatureLimits } from "./settings-rules";
import { formatDateTime } from "~/core/dates";

type SettingsData = Awaited<ReturnType<typeof loadDocumentSettingsPage>>;

/** Where the sample PDFs come from (app/documents/sample-pdf-page.server.ts). */
const sampleDocumentPath = "/staff/documents/sample";
const previewKinds = [
  ["certificate", "Preview a sample certificate"],
  ["offer-letter", "Preview a sample offer letter"],
] as const;

/** The stored signature image, with the choice to remove it on saving. */
function StoredSignature(props: { src: string; name: string; remove: boolean; setRemove: (remove: boolean) => void }) {
  return (
    <figure className="rounded-md border border-slate-200 p-3">
      <img src={props.src} alt={`Signature of ${props.name || "the signatory"}`} className="max-h-24 max-w-full" />
      <figcaption className="mt-2">
        <label className="inline-flex items-center gap-2 text-sm text-slate-900">
          <input type="checkbox" checked={props.remove} onChange={(e) => props.setRemove(e.target.checked)} />
          Remove the signature image
        </label>
      </figcaption>
    </figure>
  );
}

/** Save, and the buttons that post the form as it stands to a sample PDF, in a tab of its own. */
function FormButtons({ busy }: { busy: boolean }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={primaryButton} disabled={busy}>
          Save settings
        </button>
        {previewKinds.map(([kind, label]) => (
          <button
            key={kind}
            type="submit"
            name="kind"
            value={kind}
            formAction={sampleDocumentPath}
            formMethod="post"
            formEncType="multipart/form-data"
            formTarget="_blank"
            className={secondaryButton}
          >
            {label}
          </button>
        ))}
      </div>
      <p className="text-sm text-slate-700">
        The previews open a sample PDF in a new tab with the settings above, before you save them.
      </p>
    </>
  );
}

/** The signatory printed on new certificates and offer letters, and their signature image (admins). */
export function DocumentSettingsPage({ data }: { data: SettingsData }) {
  const { settings, timeZone } = data;
  const ids = useId();
  const action = useAction();
  const problem = useFormProblem(`${ids}-problem`);
  const file = useRef<HTMLInputElement>(null);
  const [remove, setRemove] = useState(false);
  const nameId = `${ids}-name`;
  const titleId = `${ids}-title`;
  const fileId = `${ids}-signature`;

  const save = (event: React.FormEvent<HTMLFormElement>) => {
    // A sample goes as the browser posts the form (to its own tab) once the fields pass the same checks.
    const sample = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.name === "kind";
    if (!sample) event.preventDefault();
    const form = new FormData(event.currentTarget);
    const refuse = (message: string, field: string) => {
      event.preventDefault();
      problem.show(message, [field]);
    };
    // The text fields by the server's schema, at the field they are about; then the image.
    const refusal = checkFields(settingsSchema, form);
    if (refusal) return refuse(refusal.message, refusal.field === "signatoryTitle" ? titleId : nameId);
    const image = form.get("signature");
    if (image instanceof File && image.size > signatureLimits.maxUploadBytes) {
      return refuse(settingsMessages.imageTooLarge, fileId);
    }
    if (image instanceof File && image.size > 0 && image.type && image.type !== signatureAccept) {
      return refuse(settingsMessages.notPng, fileId);
    }
    problem.clear();
    if (sample) return;
    form.set("intent", "save-document-settings");
    form.set("removeSignature", remove ? "1" : "");
    action.submit(form, {
      onDone: (answer) => {
        if (!answer.ok) return;
        if (file.current) file.current.value = "";
        setRemove(false);
      },
    });
  };

  return (
    <>
      <StaffSubpageHeading title="Document settings" />
      <p className="mt-2 max-w-2xl text-slate-700">
        Every certificate and offer letter issued from now on shows this signatory. Documents issued before keep the
        signatory they were issued with.
      </p>
      {settings.updatedAt && (
        <p className="mt-1 text-sm text-slate-700">
          Last saved by {settings.updatedBy}, {formatDateTime(settings.updatedAt, timeZone)}.
        </p>
      )}
      <form
        className="mt-6 max-w-xl space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
        noValidate
        onSubmit={save}
        // Reset when the saved values change (here or in another tab), so the fields show them.
        key={`${settings.updatedAt ?? ""}`}
      >
        <Field
          id={nameId}
          name="signatoryName"
          label="Signatory's name"
          defaultValue={settings.signatoryName}
          maxLength={100}
          autoComplete="off"
          {...problem.describe(nameId)}
        />
        <Field
          id={titleId}
          name="signatoryTitle"
          label="Signatory's title"
          placeholder="Director of Training"
          defaultValue={settings.signatoryTitle}
          maxLength={100}
          autoComplete="off"
          {...problem.describe(titleId)}
        />
        <div>
          <label htmlFor={fileId} className={labelClass}>
            {settings.signature ? "Replace the signature image (optional)" : "Signature image (optional)"}
          </label>
          <input
            ref={file}
            id={fileId}
            name="signature"
            type="file"
            accept={signatureAccept}
            className={controlClass}
            {...problem.describe(fileId, `${fileId}-hint`)}
          />
          <p id={`${fileId}-hint`} className="mt-1 text-sm text-slate-700">
            A PNG of at most {signatureLimits.maxUploadBytes / 1024} KB, best on a transparent or white background. It
            is resized to fit {signatureLimits.maxWidth} × {signatureLimits.maxHeight} pixels.
          </p>
        </div>
        {settings.signature && (
          <StoredSignature
            src={settings.signature}
            name={settings.signatoryName}
            remove={remove}
            setRemove={setRemove}
          />
        )}
        <input type="hidden" name="removeSignature" value={remove ? "1" : ""} />
        <ErrorLine id={`${ids}-problem`} message={problem.message} />
        <FormButtons busy={action.busy} />
        <LostChange action={action} />
      </form>
    </>
  );
}
