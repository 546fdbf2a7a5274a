'use strict';
/**
 * Preloaded into the compiled service (`node --require`) by the async-context test: writes one JSON
 * line to stderr for each distinct place that switches on an async context — an
 * `AsyncLocalStorage` entered (`run`, `enterWith`), an `async_hooks` hook enabled, a V8 promise hook
 * set. On Node 20 any of them, once on, runs for every promise of every request for the rest of
 * the process's life.
 */
const asyncHooks = require('node:async_hooks');
const v8 = require('node:v8');

const reported = new Set();
function report(kind) {
  const stack = (new Error().stack ?? '').split('\n').slice(3, 9).map((line) => line.trim());
  const key = `${kind} ${stack[0] ?? ''}`;
  if (reported.has(key)) return;
  reported.add(key);
  process.stderr.write(`${JSON.stringify({ asyncContextProbe: kind, stack })}\n`);
}

const storage = asyncHooks.AsyncLocalStorage.prototype;
for (const method of ['run', 'enterWith']) {
  const original = storage[method];
  storage[method] = function probed(...args) {
    report(`AsyncLocalStorage.${method}`);
    return original.apply(this, args);
  };
}

const createHook = asyncHooks.createHook;
asyncHooks.createHook = function probedCreateHook(callbacks) {
  const hook = createHook(callbacks);
  const enable = hook.enable;
  hook.enable = function probedEnable() {
    report('async_hooks.createHook().enable');
    return enable.call(this);
  };
  return hook;
};

for (const name of ['onInit', 'onSettled', 'onBefore', 'onAfter', 'createHook']) {
  const original = v8.promiseHooks?.[name];
  if (typeof original !== 'function') continue;
  v8.promiseHooks[name] = function probedPromiseHook(...args) {
    report(`v8.promiseHooks.${name}`);
    return original.apply(this, args);
  };
}
process.stderr.write(`${JSON.stringify({ asyncContextProbe: 'armed' })}\n`);
