export const photoMaxBytes = 5 * 1024 * 1024;
export const photoAccept = "image/jpeg,image/png,image/webp";

export const photoMessages = {
  wrongType: "Please choose a JPEG, PNG or WebP image.",
  tooLarge: "The photo is too large. The limit is 5 MB.",
  failed: "The photo could not be uploaded. Please try again.",
} as const;
