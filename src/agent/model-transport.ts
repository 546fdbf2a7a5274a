import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import nodeFetch from 'node-fetch';
import type { ClientOptions } from 'openai';

/**
 * How the agent's `openai` client reaches the model endpoint: node-fetch over node:http(s), on
 * connections kept alive between calls, instead of the SDK's default, Node's global fetch (undici
 * behind WHATWG streams). Two model calls are on the clinician's wait every turn (issue 15: a turn's
 * server overhead within 1.2× of its three tools' REST calls); with a 20 KB request, one call through
 * the SDK cost 0.48–0.89 ms with node-fetch against 0.71–1.46 ms with the global fetch (client and a
 * local server in one process, 1,000 calls each, alternated). The SDK documents `fetch` for this.
 */
export function modelTransport(): Pick<ClientOptions, 'fetch' | 'fetchOptions'> {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  return {
    fetch: nodeFetch as unknown as ClientOptions['fetch'],
    // node-fetch takes an agent per request, or a function choosing one by the URL's scheme.
    fetchOptions: { agent: (url: URL) => (url.protocol === 'http:' ? http : https) } as unknown as ClientOptions['fetchOptions'],
  };
}
