import { MAX_ARGUMENT_NESTING, nestingDepth, readModelReply, storableText } from './model-reply';
import { reportedCount } from './turn-budget';

const completion = (message: unknown) => ({ choices: [{ message }] });

describe('readModelReply', () => {
  it('reads an answer and tool calls of the documented shape', () => {
    expect(readModelReply(completion({ role: 'assistant', content: '{"status":"answered"}' }))).toEqual({ kind: 'answer', content: '{"status":"answered"}' });
    const calls = readModelReply(completion({ content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'patient_labs', arguments: '{}' } }] }));
    expect(calls).toEqual({ kind: 'tool_calls', content: null, calls: [{ id: 'c1', name: 'patient_labs', arguments: '{}', problem: null }] });
  });

  it.each([
    ['no completion', undefined, 'no_message'],
    ['choices empty', { choices: [] }, 'no_message'],
    ['content an object', completion({ content: {} }), 'content_not_text'],
    ['content too long', completion({ content: 'x'.repeat(64_001) }), 'content_too_long'],
    ['tool_calls an object', completion({ tool_calls: {} }), 'tool_calls_not_a_list'],
    ['a call without an id', completion({ tool_calls: [{ type: 'function', function: { name: 'a', arguments: '{}' } }] }), 'tool_call_without_id'],
    ['a call with a NUL in its id', completion({ tool_calls: [{ id: 'c\u0000', function: { name: 'a', arguments: '{}' } }] }), 'tool_call_without_id'],
    ['17 calls', completion({ tool_calls: Array.from({ length: 17 }, (_, i) => ({ id: `c${i}`, function: { name: 'a', arguments: '{}' } })) }), 'too_many_tool_calls'],
  ])('%s is malformed (%s)', (_name, body, reason) => {
    expect(readModelReply(body)).toEqual({ kind: 'malformed', reason });
  });

  it.each([
    ['arguments an object', { name: 'patient_labs', arguments: {} }, 'invalid_arguments'],
    ['arguments with NUL', { name: 'patient_labs', arguments: '{"a":"\u0000"}' }, 'invalid_arguments'],
    ['arguments too deep', { name: 'patient_labs', arguments: `{"a":${'['.repeat(MAX_ARGUMENT_NESTING)}${']'.repeat(MAX_ARGUMENT_NESTING)}}` }, 'arguments_too_deep'],
  ])('a call with %s is kept with its problem, to be refused back to the model', (_name, fn, kind) => {
    const reply = readModelReply(completion({ tool_calls: [{ id: 'c1', type: 'function', function: fn }] }));
    expect(reply).toMatchObject({ kind: 'tool_calls', calls: [{ id: 'c1', arguments: null, problem: { kind } }] });
  });

  it('passes over calls of another type, as before, and names an unusable function name as none', () => {
    expect(readModelReply(completion({ content: 'x', tool_calls: [{ id: 'c1', type: 'retrieval' }] }))).toEqual({ kind: 'answer', content: 'x' });
    expect(readModelReply(completion({ tool_calls: [{ id: 'c1', function: { name: 'drop table', arguments: '{}' } }] }))).toMatchObject({ calls: [{ name: '' }] });
  });
});

describe('storableText and nestingDepth', () => {
  it('removes NUL and lone surrogates, keeps pairs and ordinary text', () => {
    expect(storableText('a\u0000b\ud800c\udc00d😀e')).toBe('abcd😀e');
  });

  it('counts nesting outside strings only, without parsing', () => {
    expect(nestingDepth('{"a":[[1]],"b":"[[[[[["}')).toBe(3);
    expect(nestingDepth('"\\"[[[["')).toBe(0);
    expect(nestingDepth('['.repeat(100_000))).toBe(100_000);
  });
});

describe('reportedCount', () => {
  it.each([[0, 0], [120, 120], [-1e12, undefined], ['lots', undefined], [0.5, undefined], [Number.MAX_VALUE, undefined], [null, undefined]])('%p → %p', (value, expected) => {
    expect(reportedCount(value)).toBe(expected);
  });
});
