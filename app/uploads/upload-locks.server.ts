import { randomUUID } from "node:crypto";
import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/server";
import type { Db } from "~/db/database.server";
import type { EventBus } from "~/realtime/bus.server";
import { uploadLockTopic } from "~/realtime/events";

export interface UploadLockOptions {
  /** How long a lock holds without renewal: an instance that died lets go after this. */
  leaseMs: number;
  /** How long a request waits for a lock before tus answers it with an error. */
  acquireTimeoutMs: number;
  /** How often a waiting request tries again. */
  retryMs: number;
}

const defaults: UploadLockOptions = { leaseMs: 30_000, acquireTimeoutMs: 20_000, retryMs: 100 };

/**
 * tus's locker, shared by every instance through the database: a request writing an upload
 * holds its row, renewed while it runs. A second request for the same upload (a client resending
 * a PATCH, perhaps to another instance) asks the holder to let go over the event bus, as tus's
 * own in-memory locker does within one process, and takes the lock once it is free.
 */
export function databaseUploadLocker(db: Db, bus: EventBus, options: Partial<UploadLockOptions> = {}): Locker {
  const settings = { ...defaults, ...options };
  return { newLock: (uploadId) => new DatabaseUploadLock(db, bus, uploadId, settings) };
}

class DatabaseUploadLock implements Lock {
  private readonly holder = randomUUID();
  private release: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly uploadId: string,
    private readonly options: UploadLockOptions,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.options.acquireTimeoutMs;
    let asked = false;
    while (!(await this.tryAcquire())) {
      if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      // Once per wait: the holder ends its request, then deletes its row.
      if (!asked) await this.bus.publish(uploadLockTopic(this.uploadId), { type: "upload-lock-wanted" });
      asked = true;
      await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
    }
    const renew = setInterval(() => {
      void this.db
        .updateTable("upload_lock")
        .set({ expiresAt: Date.now() + this.options.leaseMs })
        .where("uploadId", "=", this.uploadId)
        .where("holder", "=", this.holder)
        .execute()
        .catch(() => {});
    }, this.options.leaseMs / 3);
    renew.unref();
    const unsubscribe = this.bus.subscribe(uploadLockTopic(this.uploadId), () => void requestRelease());
    this.release = () => {
      clearInterval(renew);
      unsubscribe();
    };
  }

  async unlock(): Promise<void> {
    this.release?.();
    this.release = undefined;
    await this.db
      .deleteFrom("upload_lock")
      .where("uploadId", "=", this.uploadId)
      .where("holder", "=", this.holder)
      .execute();
  }

  /** Takes the row if there is none, or if its holder's lease has run out. */
  private async tryAcquire(): Promise<boolean> {
    const now = Date.now();
    const taken = await this.db
      .insertInto("upload_lock")
      .values({ uploadId: this.uploadId, holder: this.holder, expiresAt: now + this.options.leaseMs })
      .onConflict((conflict) =>
        conflict
          .column("uploadId")
          .doUpdateSet({ holder: this.holder, expiresAt: now + this.options.leaseMs })
          .where("upload_lock.expiresAt", "<", now),
      )
      .executeTakeFirst();
    return Number(taken.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
