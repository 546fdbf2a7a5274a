import { LabsQueryDto } from '../tools/dto/labs-query.dto';
import { AgentTool } from './tool-catalog';
import { callKey, parseArguments, validateArguments } from './tool-arguments';

const labs: AgentTool = { name: 'patient_labs', description: '', argumentsDto: LabsQueryDto, schema: {} };

describe(parseArguments.name, () => {
  it('parses JSON, and an empty argument string as no arguments', () => {
    expect(parseArguments('{"from":"2026-01-01"}')).toEqual({ ok: true, value: { from: '2026-01-01' }, repaired: false });
    expect(parseArguments('')).toEqual({ ok: true, value: {}, repaired: false });
  });

  it('repairs only a bare None and a trailing comma, never inside a string', () => {
    expect(parseArguments('{"from": None, "code": ["4548-4",],}')).toEqual({ ok: true, value: { from: null, code: ['4548-4'] }, repaired: true });
    expect(parseArguments('{"note": "None, }", "x": None}')).toEqual({ ok: true, value: { note: 'None, }', x: null }, repaired: true });
  });

  it('quotes an unquoted calendar date, and nothing that only looks like one', () => {
    expect(parseArguments('{"from": 2026-01-01, "to": 2026-06-30}')).toEqual({ ok: true, value: { from: '2026-01-01', to: '2026-06-30' }, repaired: true });
    expect(parseArguments('{"asOf": 2026-06-30,}')).toEqual({ ok: true, value: { asOf: '2026-06-30' }, repaired: true });
    // Inside a string it is text, left alone; a date-time, a longer number run or a negative year stays broken.
    expect(parseArguments('{"note": "seen 2026-01-01", "x": None}')).toEqual({ ok: true, value: { note: 'seen 2026-01-01', x: null }, repaired: true });
    expect(parseArguments('{"from": 2026-01-01T08:00:00Z}')).toEqual({ ok: false });
    expect(parseArguments('{"from": 12026-01-01}')).toEqual({ ok: false });
    expect(parseArguments('{"from": -2026-01-01}')).toEqual({ ok: false });
  });

  it('refuses anything else', () => {
    expect(parseArguments("{from: '2026-01-01'}")).toEqual({ ok: false });
    expect(parseArguments('{"from": "2026-01-01"')).toEqual({ ok: false });
  });
});

describe(validateArguments.name, () => {
  it('accepts valid arguments as the DTO', async () => {
    const sut = await validateArguments(labs, { code: ['4548-4'] });
    expect(sut).toMatchObject({ ok: true, dto: { code: ['4548-4'] } });
  });

  it('refuses an unknown parameter by name, recoverably', async () => {
    const sut = await validateArguments(labs, { code: ['4548-4'], sql: 'SELECT 1' });
    expect(sut).toMatchObject({ ok: false, refusal: { tool: 'patient_labs', error: { kind: 'invalid_arguments', recoverable: true, fields: [{ field: 'sql', reason: 'unknown_field' }] } } });
  });

  it('refuses a patient id before anything else: the patient is bound by the route', async () => {
    const sut = await validateArguments(labs, { patientId: '00000000-0000-4000-8000-000000000000' });
    expect(sut).toMatchObject({ ok: false, refusal: { error: { kind: 'patient_bound_by_route', fields: [{ field: 'patientId' }] } } });
  });
});

describe(callKey.name, () => {
  it('is the same whatever the key order', () => {
    expect(callKey('t', { a: 1, b: [{ d: 1, c: 2 }] })).toBe(callKey('t', { b: [{ c: 2, d: 1 }], a: 1 }));
  });
});
