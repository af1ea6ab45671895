import type { MessageKind } from "~/messages/kinds";
import { kindLabels } from "~/messages/kinds";
import { textLimits } from "~/core/text";

// What staff are told after an action on learners: the workspace's sends, the document issues
// and the role changes share these texts.

/** How many learners one targeted send may name (several pages of the list). */
export const maxSelected = 500;

export const staffMessages = {
  selectLearner: "Select a learner first.",
  empty: (kind: MessageKind) => `Please enter a ${kindLabels[kind].singular}.`,
  noClearPermission: (kind: MessageKind) => `You do not have permission to clear ${kindLabels[kind].plural}.`,
  sent: (kind: MessageKind) => `${kindLabels[kind].title} sent successfully!`,
  sentMany: (kind: MessageKind, count: number) =>
    `${kindLabels[kind].title} sent to ${count} ${count === 1 ? "learner" : "learners"}.`,
  cleared: (kind: MessageKind) => `${kindLabels[kind].title}s cleared.`,
  offerLetterSaved: "Offer letter saved.",
  deleted: (kind: MessageKind) => `${kindLabels[kind].title} deleted.`,
  alreadyDeleted: "That item was already deleted.",
  roleChanged: "Role changed.",
  notALearner: "That learner no longer exists.",
  countChanged: "The number of matching learners changed. Check the list and confirm again.",
  selectSome: "Select at least one learner.",
  tooManySelected: `Select at most ${maxSelected} learners at once, or send to all matching learners.`,
  selectedGone: (count: number) =>
    count === 1
      ? "1 selected learner no longer exists. Nothing was sent; they were taken off the selection."
      : `${count} selected learners no longer exist. Nothing was sent; they were taken off the selection.`,
  ownRole: "You cannot change your own role.",
  lastAdmin: "There must be at least one admin.",
  offerLetterEmpty: "Please enter an offer letter.",
  tooManyParts: (kind: MessageKind | "offer-letter") =>
    `That ${kind === "offer-letter" ? "offer letter" : kindLabels[kind].singular} has too many lines or tags: at most ${textLimits.messageLines.toLocaleString("en-IN")} lines and ${textLimits.messageTags.toLocaleString("en-IN")} tags.`,
  tooLong: (kind: MessageKind | "offer-letter") =>
    `That ${kind === "offer-letter" ? "offer letter" : kindLabels[kind].singular} is too long: at most ${textLimits.message.toLocaleString("en-IN")} characters once formatted.`,
} as const;
