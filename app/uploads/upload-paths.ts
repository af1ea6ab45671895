// Where files go up and come down. These are resource routes: a page can't serve bytes.

/** tus resumable resume uploads (POST to start, PATCH for the bytes). */
export const resumeUploadPath = "/api/learner/resume/upload";
/** tus resumable uploads of files handed in for assignments. */
export const assignmentUploadPath = "/api/assignments/upload";

/** A file handed in for an assignment, for its learner and staff. */
export function assignmentFilePath(fileId: string): string {
  return `/api/assignments/files/${encodeURIComponent(fileId)}`;
}

/** The profile photo (POST, the image as the body). */
export const photoUploadPath = "/api/learner/photo";
/** The signed-in learner's own resume. */
export const ownResumePath = "/api/learner/resume";

/** A learner's resume, for staff. */
export function learnerResumePath(learnerId: string): string {
  return `${ownResumePath}?learner=${encodeURIComponent(learnerId)}`;
}

/** A stored photo, by its unguessable name. */
export function photoPath(name: string): string {
  return `/api/learner/photos/${name}`;
}

/**
 * The learner import's CSV upload: a page's action, posted to the page (without JavaScript) or
 * to its data address (React Router's fetch of the same action).
 */
export const importUploadPaths = ["/staff/import", "/staff/import.data"] as const;

/**
 * The public site's editor: its forms carry a logo or a picture of up to 5 MB, so the page's
 * action reads its own body, after the permission gate, with its own limits.
 */
export const siteEditorPaths = ["/staff/site", "/staff/site.data"] as const;
