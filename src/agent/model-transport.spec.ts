import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import nodeFetch from 'node-fetch';
import { modelTransport } from './model-transport';

describe('modelTransport', () => {
  const { fetch, fetchOptions } = modelTransport();
  const agentFor = (url: string) => (fetchOptions as unknown as { agent: (url: URL) => unknown }).agent(new URL(url));

  it('sends the model calls through node-fetch', () => {
    expect(fetch).toBe(nodeFetch);
  });

  it('keeps connections alive, over http and https alike, each scheme with its own agent', () => {
    const http = agentFor('http://127.0.0.1:8080/v1/chat/completions');
    const https = agentFor('https://api.example.org/v1/chat/completions');
    // An http agent on an https URL would make node-fetch refuse every call to a TLS endpoint.
    expect(http).toBeInstanceOf(HttpAgent);
    expect(http).not.toBeInstanceOf(HttpsAgent);
    expect(https).toBeInstanceOf(HttpsAgent);
    expect((http as HttpAgent & { keepAlive: boolean }).keepAlive).toBe(true);
    expect((https as HttpsAgent & { keepAlive: boolean }).keepAlive).toBe(true);
    // The same agents for every call, so connections are reused across calls and turns.
    expect(agentFor('http://127.0.0.1:8080/v1/models')).toBe(http);
    expect(agentFor('https://api.example.org/v1/models')).toBe(https);
  });
});
