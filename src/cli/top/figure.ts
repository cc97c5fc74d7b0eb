// A figure on the fleet view: its last value, when it was read, and why it is not fresh (null: it is).
// A figure that could not be read keeps its last value and says why; it is never shown as zero.

export interface Figure<T> {
  /** the last value read (null: never read) */
  value: T | null;
  /** when it was read, on the Context's clock */
  readAt: number | null;
  /** why the value is not this refresh's: '429', 'rate budget', 'hyperliquid down'… (null: fresh) */
  stale: string | null;
}

/** Not read yet, and no reason to give (the first refresh is under way). */
export const unread = <T>(): Figure<T> => ({ value: null, readAt: null, stale: null });

export const fresh = <T>(value: T, at: number): Figure<T> => ({ value, readAt: at, stale: null });

/** The last value kept, with the reason it could not be read again. */
export const staled = <T>(f: Figure<T>, reason: string): Figure<T> => ({ ...f, stale: reason });
