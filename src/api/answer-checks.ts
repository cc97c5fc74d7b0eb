// Checks on what the service sends, before anything uses it: a size past which a service that never
// stops sending is cut off, a nesting past which JSON is refused before anything walks it
// (contract.ts ANSWER_LIMITS), and the one-line failures for an answer the API does not describe.
// All are the service's fault: BadAnswerError, exit 7.
import { ANSWER_LIMITS } from '../contract.js';
import { BadAnswerError } from '../core/errors.js';
import type { IncomingHttpHeaders as Headers } from 'node:http';

const HINT = 'check the base URL points at a SuperAgents service';

const mib = (n: number) => `${n / (1024 * 1024)} MiB`;

export function answerTooLarge(limitBytes: number = ANSWER_LIMITS.jsonBytes): BadAnswerError {
  return new BadAnswerError(`the service sent an answer larger than ${mib(limitBytes)}`, HINT);
}

export function eventTooLarge(limitChars: number = ANSWER_LIMITS.eventChars): BadAnswerError {
  return new BadAnswerError(`the service sent an event larger than ${mib(limitChars)}`, 'what arrived is kept above');
}

/** An answer that breaks the shape the API gives it (hosted-openapi.json); `hint`: another than the base URL's. */
export function notAsDescribed(why: string, hint = HINT): BadAnswerError {
  return new BadAnswerError(`the service's answer is not what the API describes: ${why}`, hint);
}

export function nestsTooDeep(): BadAnswerError {
  return notAsDescribed(`it nests objects or lists more than ${ANSWER_LIMITS.jsonDepth} deep`);
}

/**
 * A body compressed although the client asked for none (Accept-Encoding: identity), given its
 * Content-Encoding: its bytes are not the JSON or events they stand for, so it is named for what it
 * is rather than read as text. Undefined for a body that is not compressed.
 */
export function compressedAnswer(contentEncoding: string | undefined): BadAnswerError | undefined {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return undefined;
  return new BadAnswerError(
    `the service answered with a ${encoding.slice(0, 40)}-compressed body the client did not ask for`,
    'the client asks for uncompressed answers: check the base URL and any proxy on the way',
  );
}

/** A reply (streamed or JSON) that ended without a word: not a success. */
export function noReplyText(): BadAnswerError {
  return new BadAnswerError(
    'the service ended the reply without any text',
    'try again; --debug shows what the service sent',
  );
}

/** Whether JSON text has objects and lists more than `max` deep (strings skipped); linear, no recursion. */
export function nestsDeeperThan(text: string, max: number = ANSWER_LIMITS.jsonDepth): boolean {
  if (text.length <= max) return false; // too short to open max + 1 of them
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/** JSON text as a value, refused when nested too deep to print; not JSON at all: the text itself. */
export function parseAnswer(text: string): unknown {
  if (text === '') return undefined;
  if (nestsDeeperThan(text)) throw nestsTooDeep();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A header's value (the first, if it came more than once). */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** An answer that is a web page, not the service's JSON: the base URL points somewhere else. */
export function looksLikeHtml(headers: Headers, text: string): boolean {
  return /text\/html/i.test(header(headers, 'content-type') ?? '') || /^\s*<(!doctype|html)/i.test(text);
}
