/**
 * One chat completion, read defensively. The OpenAI wire format is a promise the model server may
 * break (a hostile or buggy server sends `tool_calls` as an object, `content` as an object,
 * arguments as an object, null or 3,000 levels deep, NUL characters, negative token counts…), so
 * nothing of the reply is used until it has been checked here. A reply the loop cannot act on is
 * `malformed` (the turn ends as a stored, audited `failure`); a single bad tool call becomes a
 * refusal the model reads and can recover from, never an exception.
 */

import { isStorableText, storableText } from '../common/validation/text';

/** Longest final answer accepted, in characters (statements are capped at 1,000 each anyway). */
export const MAX_ANSWER_CHARS = 64_000;
/** Longest argument text of one tool call: the tools take a few short, typed fields. */
export const MAX_ARGUMENT_CHARS = 8_000;
/** Deepest nesting of arrays and objects in a tool call's arguments (the tools' own are flat). */
export const MAX_ARGUMENT_NESTING = 16;
/** Most tool calls read from one reply; more is a malformed reply, not a queue to work through. */
export const MAX_CALLS_PER_REPLY = 16;

export interface ModelToolCall {
  id: string;
  /** The function name as sent, or '' when none was (the runner refuses it as an unknown tool). */
  name: string;
  /** The argument text, when it is text fit to parse. */
  arguments: string | null;
  /** Why the arguments are unusable, when they are (refused before any tool runs). */
  problem: { kind: 'invalid_arguments' | 'arguments_too_large' | 'arguments_too_deep'; nextSteps: string } | null;
}

export type ModelReply =
  | { kind: 'answer'; content: string | null }
  | { kind: 'tool_calls'; content: string | null; calls: ModelToolCall[] }
  | { kind: 'malformed'; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text fit to store and show (one rule with REST input: `common/validation/text.ts`). */
export { storableText };
const hasUnstorable = (text: string): boolean => !isStorableText(text);

/** The deepest nesting of `[`/`{` outside string literals, scanning text (no parse, so no stack to overflow). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

function readCall(raw: unknown): ModelToolCall | 'skip' | null {
  if (!isObject(raw)) return null;
  // Only function calls are answered (as before); a call of another type is passed over.
  if (raw.type !== undefined && raw.type !== 'function') return 'skip';
  if (typeof raw.id !== 'string' || raw.id === '' || raw.id.length > 256 || hasUnstorable(raw.id)) return null;
  const fn = isObject(raw.function) ? raw.function : {};
  const name = typeof fn.name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(fn.name) ? fn.name : '';
  const args = fn.arguments;
  const call = { id: raw.id, name };
  if (typeof args !== 'string') {
    return { ...call, arguments: null, problem: { kind: 'invalid_arguments', nextSteps: 'Send the arguments as a JSON object encoded in a string, as the API defines them.' } };
  }
  if (args.length > MAX_ARGUMENT_CHARS) {
    return { ...call, arguments: null, problem: { kind: 'arguments_too_large', nextSteps: `Arguments are at most ${MAX_ARGUMENT_CHARS} characters; the tools take a few short fields.` } };
  }
  if (hasUnstorable(args)) {
    return { ...call, arguments: null, problem: { kind: 'invalid_arguments', nextSteps: 'The arguments contain characters that are not text (NUL or a broken surrogate pair).' } };
  }
  if (nestingDepth(args) > MAX_ARGUMENT_NESTING) {
    return { ...call, arguments: null, problem: { kind: 'arguments_too_deep', nextSteps: 'The tools take flat arguments; send one flat JSON object.' } };
  }
  return { ...call, arguments: args, problem: null };
}

/** Reads the first choice of a completion into something the loop can act on, or says why it cannot. */
export function readModelReply(completion: unknown): ModelReply {
  const choices = isObject(completion) ? completion.choices : undefined;
  const message = Array.isArray(choices) && isObject(choices[0]) ? choices[0].message : undefined;
  if (!isObject(message)) return { kind: 'malformed', reason: 'no_message' };
  const { content, tool_calls: toolCalls } = message;
  if (content !== undefined && content !== null && typeof content !== 'string') return { kind: 'malformed', reason: 'content_not_text' };
  if (typeof content === 'string' && content.length > MAX_ANSWER_CHARS) return { kind: 'malformed', reason: 'content_too_long' };
  const text = typeof content === 'string' ? storableText(content) : null;
  if (toolCalls === undefined || toolCalls === null) return { kind: 'answer', content: text };
  if (!Array.isArray(toolCalls)) return { kind: 'malformed', reason: 'tool_calls_not_a_list' };
  if (toolCalls.length > MAX_CALLS_PER_REPLY) return { kind: 'malformed', reason: 'too_many_tool_calls' };
  const calls: ModelToolCall[] = [];
  for (const raw of toolCalls) {
    const call = readCall(raw);
    // A call without a usable id cannot be answered in the wire format (each answer names its call).
    if (call === null) return { kind: 'malformed', reason: 'tool_call_without_id' };
    if (call !== 'skip') calls.push(call);
  }
  return calls.length === 0 ? { kind: 'answer', content: text } : { kind: 'tool_calls', content: text, calls };
}
