// What the generated scripts and the hidden command agree on.

/** The hidden command the scripts run for names only the service knows (registry entry, hidden). */
export const COMPLETE_COMMAND = '__complete';

/** What the hidden command can list: `__complete agents`, `__complete skills <agent>`. */
export const CANDIDATE_KINDS = ['agents', 'skills'] as const;
export type CandidateKind = (typeof CANDIDATE_KINDS)[number];

/** `__complete skills <agent> on|off`: only the skills in that state (disable acts on those on, enable on the rest). */
export const SKILL_STATES = ['on', 'off'] as const;

/**
 * Global options the scripts pass on from the line being completed, so the names come from the
 * service that line would talk to. Never --api-key: the CLI puts no key in a process's arguments.
 */
export const FORWARDED_GLOBALS = ['--profile', '--base-url'] as const;
