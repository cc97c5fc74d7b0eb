// The live view (placeholder until the screen layer lands): one snapshot, as --once shows it.
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';
import type { Feed } from './feed.js';
import { printSnapshot } from './snapshot-out.js';

export async function runLive(
  ctx: Context,
  _api: OpenedApi,
  feed: Feed,
  o: { intervalMs: number; budget: number },
): Promise<void> {
  printSnapshot(ctx, await feed.refresh({ complete: true }), o.budget);
}
