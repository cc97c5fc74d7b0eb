// Whether a key works: one GET /v1/superagents, answered with the caller's agent count (login, whoami).
import type { ApiClient } from '../../../api/client.js';
import { AuthError, NotFoundError, NotTheServiceError } from '../../../api/errors.js';
import { superagents } from '../../../api/superagents.js';
import { CredentialsError } from '../../../core/errors.js';
import { maskKey } from '../../../ui/mask.js';

/** The number of agents the key sees; a 401/403 becomes a CredentialsError (exit 3) naming the masked key. */
export async function checkKey(client: ApiClient, apiKey: string): Promise<number> {
  try {
    return (await superagents.list(client)).length;
  } catch (err) {
    if (err instanceof AuthError) {
      throw new CredentialsError(
        `${client.baseUrl} rejected the key ${maskKey(apiKey)}: ${err.message} (${err.status})`,
        "check the key and the base URL, then run 'superagent login' again",
      );
    }
    if (err instanceof NotFoundError) {
      throw new NotTheServiceError(
        `${client.baseUrl} does not look like a SuperAgents service: GET /v1/superagents answered 404`,
        "check the base URL: the service's address, without /v1",
        404,
      );
    }
    throw err;
  }
}
