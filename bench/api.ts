import { createApiClient, type ApiClient } from '../shared/api-client.js';

/** The benchmarks reach the API as a script does: typed calls over the public REST routes, with the bench's credentials. */
export function benchApi(url: string, auth: Record<string, string>): ApiClient {
  return createApiClient({ baseUrl: url, routes: 'rest', headers: auth });
}
