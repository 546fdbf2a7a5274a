// @ts-check
/**
 * Vigil's review page: the pending queue, one proposal with its versions and history, approve /
 * edit / reject, updated live. No framework and no build: browser ES modules, each served as it is
 * (see `review-page.controller.ts` for the list). Every value from the API reaches the page through
 * textContent or an attribute, never as markup; the page's CSP forbids inline script besides.
 */
import { announce, el, showError } from './dom.js';
import { openDetail, wireDecisions } from './detail.js';
import { wireEditForm } from './edit-form.js';
import { followStream, onChange, stopStream } from './live.js';
import { loadQueue, onOpen, renderQueue, wireQueue } from './queue.js';
import { startProviderSignIn } from './oidc.js';
import { isSignedIn, onSignedIn, onSignedOut, startSession } from './session.js';
import { resetState, state } from './state.js';

onOpen(openDetail);
onChange(async () => {
  await loadQueue().catch((error) => showError(error.message));
  if (state.selected) await openDetail(state.selected, false).catch((error) => showError(error.message));
});

// The first read with a new token is its test: the session starts only if the queue answers.
onSignedIn(async () => {
  await loadQueue();
  el('workspace').hidden = false;
  announce(`Signed in. ${state.items.length} proposal${state.items.length === 1 ? '' : 's'} pending.`);
  el('queue-title').setAttribute('tabindex', '-1');
  el('queue-title').focus();
  void followStream();
});
onSignedOut(() => {
  stopStream();
  resetState();
  el('workspace').hidden = true;
  el('detail').hidden = true;
});

wireQueue();
wireDecisions();
wireEditForm();
window.setInterval(() => isSignedIn() && renderQueue(), 30_000); // waiting times move on
startSession();
void startProviderSignIn().catch(() => showError('The sign-in options could not be loaded. Reload the page.'));
