import { createContext } from "react-router";

/** The client's address as the server sees it (the socket, or TRUST_PROXY's header). */
export const clientAddressContext = createContext<string>("unknown");

/** The id that ties a request's log lines together; also sent as X-Request-Id. */
export const requestIdContext = createContext<string>("-");
