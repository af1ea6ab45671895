import { useRef, useState } from "react";
import { photoAccept, photoMaxBytes, photoMessages } from "~/uploads/photo-rules";
import { useRevalidator } from "react-router";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { ErrorLine } from "~/ui/form";
import { useToast } from "~/ui/toast";
import { useAction } from "~/ui/use-action";
import { photoUploadPath } from "~/uploads/upload-paths";

const acceptedTypes = new Set(photoAccept.split(","));

/**
 * The profile picture; clicking it picks a new one (checked here, and for real by the server).
 * Remove deletes it after a Yes.
 */
export function ProfilePhoto({ photoUrl, username }: { photoUrl: string | null; username: string }) {
  const { revalidate } = useRevalidator();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState("");
  const removal = useAction();
  const toast = useToast();

  const remove = () =>
    removal.submit(
      { intent: "delete-photo" },
      {
        inline: true,
        onDone: (answer) => {
          if (!answer.ok) return setRemoveError(answer.message);
          setConfirming(false);
          toast.success(answer.message);
        },
      },
    );

  const choose = async (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    setError("");
    if (!acceptedTypes.has(file.type)) return setError(photoMessages.wrongType);
    if (file.size > photoMaxBytes) return setError(photoMessages.tooLarge);
    setBusy(true);
    const failure = await uploadPhoto(file);
    setBusy(false);
    if (failure) setError(failure);
    else void revalidate();
  };

  return (
    <div className="flex flex-col items-center gap-2">
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={busy}
        className="group relative size-24 overflow-hidden rounded-full border-2 border-blue-800 bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        aria-label="Change profile picture"
      >
        {photoUrl ? (
          <img
            src={photoUrl}
            alt={`Profile picture of ${username}`}
            width={96}
            height={96}
            className="size-full object-cover"
          />
        ) : (
          <svg viewBox="0 0 96 96" className="size-full text-slate-400" aria-hidden="true">
            <circle cx="48" cy="36" r="18" fill="currentColor" />
            <path d="M12 92c4-20 18-30 36-30s32 10 36 30z" fill="currentColor" />
          </svg>
        )}
        <span className="absolute inset-x-0 bottom-0 bg-slate-900/70 py-0.5 text-xs font-semibold text-white">
          {busy ? "Uploading…" : "Change"}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept={photoAccept}
        className="sr-only"
        tabIndex={-1}
        aria-label="Profile picture file"
        data-testid="photo-input"
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      {photoUrl && (
        <button
          type="button"
          className="text-sm font-semibold text-red-700 underline"
          onClick={() => {
            setRemoveError("");
            setConfirming(true);
          }}
        >
          Remove photo
        </button>
      )}
      <ErrorLine message={error} className="max-w-56 text-center" />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove photo"
        description="Remove your profile photo? Staff will no longer see it."
        danger
        onYes={remove}
        busy={removal.busy}
        error={removeError}
        action={removal}
      />
    </div>
  );
}

/** Sends the image as the request body; answers the message to show, or null when it was saved. */
async function uploadPhoto(file: File): Promise<string | null> {
  try {
    const response = await fetch(photoUploadPath, {
      method: "POST",
      body: file,
      headers: { "content-type": file.type || "application/octet-stream" },
    });
    if (response.ok) return null;
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return typeof body?.message === "string" ? body.message : "The picture could not be saved. Please try again.";
  } catch {
    return "The server could not be reached. Please check your connection and try again.";
  }
}
