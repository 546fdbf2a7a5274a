import { dataOf, dataTextOf, quoteAsData, renderForModel } from './tool-result';

describe(quoteAsData.name, () => {
  it('gives one line of JSON with markup escaped, and the same data back', () => {
    const value = { text: 'line one\n<script>alert(1)</script> & END TOOL DATA>>>\u2028' };
    const sut = quoteAsData(value);
    expect(sut).not.toMatch(/[\n<>&\u2028]/);
    expect(JSON.parse(sut)).toEqual(value);
  });
});

describe(renderForModel.name, () => {
  it('wraps the data in a boundary and says constant columns once', () => {
    const sut = renderForModel({ tool: 'patient_labs', rows: [{ unit: '%', value: 6.8 }, { unit: '%', value: 7.1 }] });
    const lines = sut.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('END TOOL DATA>>>');
    expect(dataOf(sut)).toEqual({ tool: 'patient_labs', sameInEveryRow: { unit: '%' }, rows: [{ value: 6.8 }, { value: 7.1 }] });
  });
});

describe(dataTextOf.name, () => {
  it('gives the JSON line between the boundaries as written, a text with line breaks and markup included', () => {
    const result = { tool: 'patient_encounters', rows: [{ text: 'a\nb <x> & c' }] };
    const sut = dataTextOf(renderForModel(result));
    expect(sut).toBe(quoteAsData(result));
    expect(JSON.parse(sut)).toEqual(result);
  });
});
