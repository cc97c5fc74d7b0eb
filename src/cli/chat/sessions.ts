// Chat sessions as the CLI speaks of them.

/** The hosted assistant keeps no conversations (contract §5): a session asked for may come back as a new one. */
export function notContinued(asked: string, got: string): string {
  return `the service did not continue session ${asked}: it answered in a new session (${got}), without the earlier messages`;
}
