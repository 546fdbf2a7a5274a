import { join } from 'node:path';
import { bridgeOptions } from './mcp-bridge.command';
import { defaultCredentialsFile } from './mcp-bridge-sign-in';

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

  it('signs in at the identity provider without a token, and lets the person choose the patient without --patient', () => {
    expect(bridgeOptions(['--url', 'https://vigil.example.org'], { HOME: '/home/ada' })).toEqual({
      url: new URL('https://vigil.example.org'),
      token: undefined,
      patientId: undefined,
      breakGlassReason: undefined,
      clientId: undefined,
      scope: undefined,
      credentialsFile: join('/home/ada', '.config', 'vigil', 'mcp-credentials.json'),
      signInOnly: false,
    });
    expect(bridgeOptions(['--url', 'https://vigil.example.org', '--client-id', 'vigil-desktop', '--credentials', '/tmp/c.json', '--sign-in'], {})).toMatchObject({
      clientId: 'vigil-desktop',
      credentialsFile: '/tmp/c.json',
      signInOnly: true,
    });
    // An empty VIGIL_TOKEN (a desktop configuration's placeholder left blank) is no token.
    expect(bridgeOptions(['--url', 'https://vigil.example.org'], { VIGIL_TOKEN: '' })).toMatchObject({ token: undefined });
    expect(defaultCredentialsFile({ XDG_CONFIG_HOME: '/cfg' })).toBe(join('/cfg', 'vigil', 'mcp-credentials.json'));
  });

  it.each([
    ['plain http to another host', ['--url', 'http://vigil.example.org', '--token', 't', '--patient', PATIENT], /https/],
    ['no URL', ['--patient', PATIENT], /--url/],
    ['a patient that is not an id', ['--url', 'https://vigil.example.org', '--token', 't', '--patient', 'VGL-000101'], /UUID/],
    ['break glass without a patient', ['--url', 'https://vigil.example.org', '--break-glass-reason', 'Unconscious in the emergency department'], /names its patient/],
    ['a sign-in with a token', ['--url', 'https://vigil.example.org', '--token', 't', '--sign-in'], /no token/],
    ['not a URL', ['--url', 'vigil', '--token', 't', '--patient', PATIENT], /URL/],
    ['an unknown option', ['--url', 'https://vigil.example.org', '--token', 't', '--patient', PATIENT, '--sql', 'x'], /usage/],
  ])('refuses %s, with a message that says why', (_name, args, message) => {
    const options = bridgeOptions(args, {});
    expect(typeof options).toBe('string');
    expect(options).toMatch(message);
  });
});
