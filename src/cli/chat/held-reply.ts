// The whole text of a reply, for what cannot do without it: --json prints the reply as one JSON value,
// --fields parses it. Everything else prints a reply as it arrives and keeps none of it (a reply may be
// larger than the memory, or than a string may be). Held up to a cap; past it the reply fails (exit 7)
// and what was held is dropped, never printed as if it were the reply.
import { ANSWER_LIMITS } from '../../contract.js';
import { ReplyTooLargeError } from '../../core/errors.js';

/**
 * The most of a reply held whole, in bytes of UTF-8: as much as a JSON answer may be, so that a reply
 * is refused with --json streamed where the same reply sent whole (--no-stream) is refused too. Printing
 * it as JSON takes about as much again twice over (the joined text, then its JSON).
 */
export const HELD_REPLY_BYTES = ANSWER_LIMITS.jsonBytes;

const size = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

/** The cap in words ("16 MiB"), for the help of the commands that hold a reply. */
export const HELD_REPLY_SIZE = size(HELD_REPLY_BYTES);

export class HeldReply {
  private pieces: string[] = [];
  private bytes = 0;
  private dropped = false;

  /** `option`: what needs the reply whole (--json, --fields), named when the reply is over the cap */
  constructor(
    private readonly option: string,
    private readonly limit: number = HELD_REPLY_BYTES,
  ) {}

  /** Holds one more piece; throws ReplyTooLargeError (and drops the rest) once the reply is over the cap. */
  add(text: string): void {
    if (this.dropped) return;
    this.bytes += Buffer.byteLength(text);
    if (this.bytes > this.limit) {
      this.pieces = [];
      this.dropped = true;
      throw new ReplyTooLargeError(
        `the reply is longer than the ${size(this.limit)} ${this.option} holds whole`,
        `leave out ${this.option} to have it printed as it arrives, at any length`,
      );
    }
    this.pieces.push(text);
  }

  /** The text held so far; undefined once the reply went over the cap. */
  get text(): string | undefined {
    if (this.dropped) return undefined;
    if (this.pieces.length > 1) this.pieces = [this.pieces.join('')];
    return this.pieces[0] ?? '';
  }
}
