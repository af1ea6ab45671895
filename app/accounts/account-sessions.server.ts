import { isAPIError } from "better-auth/api";
import type { Db } from "~/db/database.server";
import type { AccountSessions } from "~/learners/account-deletion.server";
import type { Auth } from "./auth.server";

/** The account-deletion port, answered by better-auth and the session table. */
export function accountSessions(auth: Auth, db: Db): AccountSessions {
  return {
    async checkPassword(request, password) {
      try {
        await auth.api.verifyPassword({ body: { password }, headers: request.headers });
        return "right";
      } catch (error) {
        if (!isAPIError(error)) throw error;
        if (error.statusCode === 429) return "too-many";
        if (error.statusCode >= 500) throw error;
        return "wrong";
      }
    },
    async revokeSessions(request, userId) {
      const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
      await db.deleteFrom("session").where("userId", "=", userId).execute();
      return headers?.getSetCookie() ?? [];
    },
  };
}
