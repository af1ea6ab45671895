import { useId, useRef, useState } from "react";
import { StaffSubpageHeading } from "~/ui/StaffSubpageHeading";
import { ErrorLine, Field, controlClass, labelClass, useFormProblem } from "~/ui/form";
import { primaryButton } from "~/ui/styles";
import { checkFields, useAction } from "~/ui/use-action";
import { LostChange } from "~/ui/LostChange";
import type { loadDocumentSettingsPage } from "./settings-page.server";
import { settingsMessages, settingsSchema, signatureAccept, signatureLimits } from "./settings-rules";
import { formatDateTime } from "~/core/dates";

type SettingsData = Awaited<ReturnType<typeof loadDocumentSettingsPage>>;

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
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The text fields by the server's schema, at the field they are about; then the image.
    const refusal = checkFields(settingsSchema, form);
    if (refusal) return problem.show(refusal.message, [refusal.field === "signatoryTitle" ? titleId : nameId]);
    const image = form.get("signature");
    if (image instanceof File && image.size > signatureLimits.maxUploadBytes) {
      return problem.show(settingsMessages.imageTooLarge, [fileId]);
    }
    if (image instanceof File && image.size > 0 && image.type && image.type !== signatureAccept) {
      return problem.show(settingsMessages.notPng, [fileId]);
    }
    problem.clear();
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
          <figure className="rounded-md border border-slate-200 p-3">
            <img
              src={settings.signature}
              alt={`Signature of ${settings.signatoryName || "the signatory"}`}
              className="max-h-24 max-w-full"
            />
            <figcaption className="mt-2">
              <label className="inline-flex items-center gap-2 text-sm text-slate-900">
                <input type="checkbox" checked={remove} onChange={(e) => setRemove(e.target.checked)} />
                Remove the signature image
              </label>
            </figcaption>
          </figure>
        )}
        <ErrorLine id={`${ids}-problem`} message={problem.message} />
        <button type="submit" className={primaryButton} disabled={action.busy}>
          Save settings
        </button>
        <LostChange action={action} />
      </form>
    </>
  );
}
