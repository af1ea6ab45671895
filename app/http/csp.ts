import { createContext as createRouterContext } from "react-router";
import { createContext } from "react";

/**
 * The per-request CSP nonce, or null when the page is rendered once for the shared
 * anonymous cache (that page is then allowed by the hashes of its inline scripts).
 */
export const cspNonceContext = createRouterContext<string | null>(null);

/** The same nonce for components (root's <Scripts>), set by entry.server. */
export const NonceContext = createContext<string | undefined>(undefined);
