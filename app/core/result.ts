/** The statuses a refusal may carry: each is a 4xx the person can act on. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429;

/** A refusal: the status to answer with and the sentence to show, plus what this kind adds. */
export type Refusal<Extra = object> = { ok: false; status: RefusalStatus; message: string } & Extra;

/** What a check or a change answers: what it made, or why not. */
export type Outcome<Made = object, RefusalExtra = object> = ({ ok: true } & Made) | Refusal<RefusalExtra>;

/**
 * What an action answers: the text for the success line, or the text for the error line (a
 * bulk send's refusal says how many the audience has become, or which learners are gone).
 */
export type ActionResult<Made = object> = Outcome<{ message: string } & Made, { count?: number; gone?: string[] }>;
