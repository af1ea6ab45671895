import { createContext } from "react-router";

/** The client's address as the server sees it (the socket, or TRUST_PROXY's header). */
export const clientAddressContext = createContext<string>("unknown");

/** The connecting socket's own address, whatever any header claims (see authorizeMetrics). */
export const socketAddressContext = createContext<string>("unknown");

/**
 * The matched route's pattern ("/staff/learners/:id"), set by the root middleware: the request
 * metrics' route label, which stays bounded whatever the addresses asked for.
 */
export const routePatternContext = createContext<string | null>(null);

/** The id that ties a request's log lines together; also sent as X-Request-Id. */
export const requestIdContext = createContext<string>("-");

/**
 * The header this server sets on every request it hands to the app (and strips from what
 * clients send), so that code reading only headers (better-auth's rate limits) sees the real IP.
 */
export const CLIENT_IP_HEADER = "x-upskill-client-ip";
