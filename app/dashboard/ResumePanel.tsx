import { useRef, useState } from "react";
import type { LearnerState } from "~/learners/learner-state";
import { resumeAccept, resumeExtension, resumeMessages } from "~/uploads/resume-types";
import { card } from "~/ui/styles";
import { ConfirmDialog } from "~/ui/ConfirmDialog";
import { formatSize } from "./format";
import { useRevalidator } from "react-router";
import { ErrorLine } from "~/ui/form";
import { useAction } from "~/ui/use-action";
import { ownResumePath, resumeUploadPath } from "~/uploads/upload-paths";
import { formatDateTime } from "~/core/dates";

const interrupted = "The upload was interrupted. Choose the same file again to continue where it stopped.";

/**
 * The resume: a resumable (tus) upload with progress in whole percent. Choosing the same file
 * after a dropped connection or a reload continues from the last byte the server has.
 */
export function ResumePanel({
  resume,
  maxMb,
  timeZone,
}: {
  resume: LearnerState["resume"];
  maxMb: number;
  timeZone: string;
}) {
  const removal = useAction();
  const { input, progress, error, upload } = useResumeUpload(maxMb);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState("");

  const remove = () => {
    setDeleteError("");
    removal.submit(
      { intent: "delete-resume" },
      {
        inline: true,
        onDone: (answer) => (answer.ok ? setConfirming(false) : setDeleteError(answer.message)),
      },
    );
  };

  return (
    <section aria-labelledby="resume-heading" className={card}>
      <h2 id="resume-heading" className="text-xl font-bold text-slate-900">
        Resume
      </h2>
      {resume ? (
        <div className="mt-3 space-y-1 text-slate-800" data-testid="resume-current">
          <p className="font-medium break-all">{resume.fileName}</p>
          <p className="text-sm text-slate-600">
            Uploaded <time dateTime={resume.uploadedAt}>{formatDateTime(resume.uploadedAt, timeZone)}</time> ·{" "}
            {formatSize(resume.size)}
          </p>
          <div className="flex flex-wrap gap-3 pt-2">
            <a href={ownResumePath} download={resume.fileName} className="font-semibold text-blue-800 underline">
              Download resume
            </a>
            <button type="button" className="font-semibold text-red-700 underline" onClick={() => setConfirming(true)}>
              Delete resume
            </button>
          </div>
        </div>
      ) : (
        <p className="mt-3 text-slate-700">No resume uploaded yet.</p>
      )}

      <div className="mt-4">
        <label htmlFor="resume-file" className="block text-sm font-medium text-slate-800">
          {resume ? "Replace resume" : "Upload resume"} (.pdf, .doc or .docx, up to {maxMb} MB)
        </label>
        <input
          id="resume-file"
          ref={input}
          type="file"
          accept={resumeAccept}
          disabled={progress !== null && progress < 100}
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-blue-800 file:bg-white file:px-4 file:py-2 file:font-semibold file:text-blue-800"
          onChange={(event) => void upload(event.target.files?.[0])}
        />
      </div>
      {progress !== null && <UploadProgress percent={progress} />}
      <ErrorLine message={error} className="mt-2" />

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          setDeleteError("");
        }}
        title="Delete resume"
        description={`Delete your resume${resume ? ` ${resume.fileName}` : ""}?`}
        danger
        onYes={remove}
        busy={removal.busy}
        error={deleteError}
        action={removal}
      />
    </section>
  );
}

/** Sends a resume with tus, resuming an upload a dropped connection cut short; its progress and its refusal. */
function useResumeUpload(maxMb: number) {
  const { revalidate } = useRevalidator();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState("");

  const upload = async (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    setError("");
    if (!resumeExtension(file.name)) return setError(resumeMessages.wrongType);
    if (file.size > maxMb * 1024 * 1024) return setError(resumeMessages.tooLarge(maxMb));
    setProgress(0);
    const tus = await import("tus-js-client");
    const uploader = new tus.Upload(file, {
      endpoint: resumeUploadPath,
      chunkSize: 512 * 1024,
      retryDelays: [0, 1_000, 3_000, 5_000],
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onProgress(sent, total) {
        setProgress(Math.floor((sent / total) * 100));
      },
      onSuccess() {
        setProgress(100);
        void revalidate();
        setTimeout(() => setProgress(null), 1_500);
      },
      onError(failure) {
        setProgress(null);
        const response = (failure as { originalResponse?: { getStatus(): number; getBody(): string } | null })
          .originalResponse;
        const status = response?.getStatus() ?? 0;
        const body = response?.getBody()?.trim() ?? "";
        if (status >= 400 && status < 500 && body && status !== 404) setError(body);
        else if (status >= 500) setError(body || "The resume could not be saved. Please try again.");
        else setError(interrupted);
      },
    });
    const previous = await uploader.findPreviousUploads();
    if (previous[0]) uploader.resumeFromPreviousUpload(previous[0]);
    uploader.start();
  };
  return { input, progress, error, upload };
}

function UploadProgress({ percent }: { percent: number }) {
  return (
    <div className="mt-3 flex items-center gap-3">
      <div
        role="progressbar"
        aria-label="Resume upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-blue-800 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <span className="w-12 text-right text-sm font-semibold text-slate-800" data-testid="resume-progress">
        {percent}%
      </span>
    </div>
  );
}
