// @ts-check
/**
 * Live updates: GET /proposals/events read with fetch(), which, unlike EventSource, can send the
 * token in the Authorization header (a token in a URL would end up in logs). Reconnects with backoff.
 * Events name no patient, by design: the reload they trigger re-reads the queue (an audited read that
 * names its patients), and the announcement names the patient from it then.
 */
import { announce, setLiveState } from './dom.js';
import { KINDS, label, patientLabel } from './format.js';
import { accessToken, refused } from './session.js';
import { isNews } from './queue-view.js';
import { state } from './state.js';

/** @type {AbortController | null} */
let stream = null;
/** @type {number | undefined} */
let reloadTimer;
/** Live events heard since the last reload, announced once it has named their patients. @type {Array<{ type: string, data: any }>} */
let heard = [];
/** @type {() => Promise<void>} */
let reload = async () => undefined;

/** What a burst of changes re-reads (the queue, the open proposal). @param {() => Promise<void>} reader */
export const onChange = (reader) => void (reload = reader);

/** Live changes come in bursts: one reload for a burst, then one announcement naming each patient. */
export function scheduleReload() {
  window.clearTimeout(reloadTimer);
  reloadTimer = window.setTimeout(() => {
    const events = heard.splice(0);
    reload().then(() => announceChanges(events), () => undefined);
  }, 250);
}

export async function followStream() {
  const controller = new AbortController();
  stream = controller;
  let delay = 1000;
  while (!controller.signal.aborted) {
    try {
      const response = await fetch('/proposals/events', {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${await accessToken()}` },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        if (await refused()) continue; // a renewed token: listen again with it
        return;
      }
      if (response.status === 403) return setLiveState('Live updates are not available for your role');
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      setLiveState('Live updates on');
      delay = 1000;
      scheduleReload(); // whatever changed while we were not listening
      await readEvents(response.body, onEvent);
    } catch {
      if (controller.signal.aborted) return;
    }
    setLiveState('Live updates interrupted, reconnecting…');
    await new Promise((resolve) => window.setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

export function stopStream() {
  stream?.abort();
  stream = null;
  heard = [];
  window.clearTimeout(reloadTimer);
  setLiveState(null);
}

/** Server-sent events framing: blocks separated by a blank line; `event:` and `data:` fields; `:` comments. */
/** @param {ReadableStream<Uint8Array>} body @param {(event: { type: string, data: any }) => void} onMessage */
async function readEvents(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n|\r(?!$)/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (message) onMessage(message);
    }
  }
}

/** @param {string} block */
function parseEvent(block) {
  let type = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  try {
    return { type, data: JSON.parse(data.join('\n')) };
  } catch {
    return null;
  }
}

/** @param {{ type: string, data: any }} event */
function onEvent(event) {
  if (event.type !== 'proposal.created' && event.type !== 'proposal.updated') return;
  // Whether it is news is decided now: the reload it triggers is about to list the proposal.
  if (isNews(event, state.seen.has(event.data?.id))) heard.push(event);
  scheduleReload();
}

/** @param {Array<{ type: string, data: any }>} events */
function announceChanges(events) {
  const sentences = events.map(({ type, data }) => {
    const what = `${label(KINDS, data.kind)} for ${patientLabel(state.patients.get(data.id))}`;
    return type === 'proposal.created' ? `New proposal: ${what}.` : `Updated: ${what} is ${data.status}.`;
  });
  if (sentences.length > 0) announce(sentences.join(' '));
}
