import { bridgeOptions } from './mcp-bridge.command';

const PATIENT = 'd08ca70f-acd8-585e-b29a-c424328ef2a1';

describe('mcp bridge options', () => {
  it.each([
    ['https anywhere', ['--url', 'https://vigil.example.org', '--token', 't', '--patient', PATIENT], {}, 'https://vigil.example.org/'],
    ['plain http to this machine', ['--url', 'http://127.0.0.1:3000', '--token', 't', '--patient', PATIENT], {}, 'http://127.0.0.1:3000/'],
    ['plain http to localhost', ['--url', 'http://localhost:3000', '--patient', PATIENT], { VIGIL_TOKEN: 't' }, 'http://localhost:3000/'],
  ])('accepts %s', (_name, args, env, url) => {
    const options = bridgeOptions(args, env);
    expect(typeof options).toBe('object');
    expect(options).toMatchObject({ token: 't', patientId: PATIENT });
    expect(typeof options === 'object' && options.url.href).toBe(url);
  });

  it.each([
    ['plain http to another host', ['--url', 'http://vigil.example.org', '--token', 't', '--patient', PATIENT], /https/],
    ['no token at all', ['--url', 'https://vigil.example.org', '--patient', PATIENT], /token/],
    ['no patient', ['--url', 'https://vigil.example.org', '--token', 't'], /--patient/],
    ['a patient that is not an id', ['--url', 'https://vigil.example.org', '--token', 't', '--patient', 'VGL-000101'], /UUID/],
    ['not a URL', ['--url', 'vigil', '--token', 't', '--patient', PATIENT], /URL/],
    ['an unknown option', ['--url', 'https://vigil.example.org', '--token', 't', '--patient', PATIENT, '--sql', 'x'], /usage/],
  ])('refuses %s, with a message that says why', (_name, args, message) => {
    const options = bridgeOptions(args, {});
    expect(typeof options).toBe('string');
    expect(options).toMatch(message);
  });
});
