/**
 * The SQL texts of compiledOnce queries, by statement name: on PostgreSQL each connection
 * prepares them once (parsed and planned once) instead of on every run. Its own module, so that
 * the database (which sends them by name) and compiledOnce (which names them) import it, not each other.
 */
export const preparedStatementNames = new Map<string, string>();
