/** The most keys one coalesced read carries; more wait for the next. */
export const coalescedReadLimit = 500;

/**
 * A read by key whose concurrent callers share round trips: a read asked while another is in
 * flight waits for the next one, which carries every key asked meanwhile. So no caller gets an
 * answer read before it asked (a write committed before the asking is seen), and a busy process
 * sends one query where it would send dozens. Alone, a read goes at once.
 */
export function coalescedReads<V>(
  readMany: (keys: string[]) => Promise<Map<string, V>>,
): (key: string) => Promise<V | undefined> {
  type Caller = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  const waiting = new Map<string, Caller[]>();
  let running = false;
  const run = async () => {
    running = true;
    while (waiting.size > 0) {
      const batch = new Map([...waiting].slice(0, coalescedReadLimit));
      for (const key of batch.keys()) waiting.delete(key);
      try {
        const found = await readMany([...batch.keys()]);
        for (const [key, callers] of batch) for (const caller of callers) caller.resolve(found.get(key));
      } catch (error) {
        for (const callers of batch.values()) for (const caller of callers) caller.reject(error);
      }
    }
    running = false;
  };
  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!running) void run();
    });
}
