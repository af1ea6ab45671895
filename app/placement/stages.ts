// The job pipeline's stages and an enrolment's graduation status, in order, with their names.

export const applicationStages = [
  "applied",
  "shortlisted",
  "interview",
  "offered",
  "accepted",
  "declined",
  "joined",
  "left",
] as const;

export type ApplicationStage = (typeof applicationStages)[number];

export const stageNames: Record<ApplicationStage, string> = {
  applied: "Applied",
  shortlisted: "Shortlisted",
  interview: "Interview",
  offered: "Offered",
  accepted: "Accepted",
  declined: "Declined",
  joined: "Joined",
  left: "Left",
};

/** Stages that need the offer recorded first: the learner said yes to something on paper. */
export const stagesNeedingOffer: readonly ApplicationStage[] = ["accepted", "joined", "left"];

/** An accepted offer stays accepted once the learner joins (and after they leave). */
export const acceptedStages: readonly ApplicationStage[] = ["accepted", "joined", "left"];

export const graduations = ["in-progress", "graduated", "dropped-out"] as const;
export type Graduation = (typeof graduations)[number];

export const graduationNames: Record<Graduation, string> = {
  "in-progress": "In progress",
  graduated: "Graduated",
  "dropped-out": "Dropped out",
};

export const applicationSources = ["referral", "own"] as const;
export const sourceNames: Record<(typeof applicationSources)[number], string> = {
  referral: "Institute referral",
  own: "Own application",
};
