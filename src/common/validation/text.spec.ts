import { isSingleLineText, isStorableText } from './text';

describe('free text', () => {
  it.each([
    ['plain text', 'Book an HbA1c recheck', true, true],
    ['a line break and a tab', 'line one\n\tline two', true, false],
    ['an emoji (a surrogate pair)', 'ok 👍', true, true],
    ['NUL', 'a\u0000b', false, false],
    ['a lone high surrogate', 'a\ud800b', false, false],
    ['a lone low surrogate', 'a\udc00b', false, false],
    ['a high surrogate at the end', 'a\ud83d', false, false],
    ['U+0085 (NEL)', 'a\u0085b', true, false],
    ['U+009B (CSI)', 'a\u009bb', true, false],
    ['DEL', 'a\u007fb', true, false],
    ['ESC', 'a\u001bb', true, false],
    ['accented latin-1 text', 'Lucía Muñoz', true, true],
  ])('%s: storable %s, single line %s', (_name, value, storable, singleLine) => {
    expect([isStorableText(value), isSingleLineText(value)]).toEqual([storable, singleLine]);
  });
});
