/**
 * Every `intent` a form may send, by name. Each feature adds its own names to this interface
 * (declaration merging, from its intent table), so the forms' `intent` prop is checked against
 * the tables: a misspelled intent fails the typecheck, and core names no feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each feature
export interface IntentNames {}

export type IntentName = keyof IntentNames & string;
