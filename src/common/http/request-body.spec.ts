import { hostileShapes, MAX_BODY_DEPTH } from './request-body';

describe(hostileShapes.name, () => {
  it('passes ordinary bodies', () => {
    expect(hostileShapes({ version: 1, content: { channel: 'phone' }, citations: ['obs:x'] }, 'body')).toEqual([]);
  });

  it('names every prototype key, at any depth', () => {
    const body = JSON.parse('{"__proto__":{"a":1},"content":{"constructor":1,"list":[{"prototype":2}]}}');
    expect(hostileShapes(body, 'body').map((problem) => `${problem.field}:${problem.reason}`).sort()).toEqual([
      '__proto__:forbidden_field',
      'content.constructor:forbidden_field',
      'content.list.0.prototype:forbidden_field',
    ]);
  });

  it('refuses nesting past the limit without recursing (10^5 levels)', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(hostileShapes(deep, 'body')).toEqual([expect.objectContaining({ reason: 'maxDepth' })]);
  });

  it('accepts nesting up to the limit', () => {
    let value: unknown = 1;
    for (let depth = 0; depth < MAX_BODY_DEPTH; depth += 1) value = [value];
    expect(hostileShapes(value, 'body')).toEqual([]);
  });
});
