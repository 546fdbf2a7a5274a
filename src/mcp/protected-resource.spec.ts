import { loadConfig } from '../config/load-config';
import { protectedResourceMetadata } from './protected-resource';

describe('OAuth protected resource metadata (RFC 9728)', () => {
  it('names the identity provider as the authorization server when tokens come from one', () => {
    const config = loadConfig({ AUTH_JWKS_URL: 'https://id.example.org/jwks', AUTH_ISSUER: 'https://id.example.org', AUTH_DEV_MODE: 'false' });
    expect(protectedResourceMetadata(config, 'https://vigil.example.org', '/mcp')).toEqual({
      resource: 'https://vigil.example.org/mcp',
      authorization_servers: ['https://id.example.org'],
      scopes_supported: ['openid', 'offline_access'],
      bearer_methods_supported: ['header'],
      resource_name: 'Vigil',
      resource_documentation: 'https://vigil.example.org/docs',
    });
  });

  it('tells clients the scopes MCP_OAUTH_SCOPES names, and refuses a malformed list', () => {
    const config = loadConfig({ AUTH_JWKS_URL: 'https://id.example.org/jwks', AUTH_ISSUER: 'https://id.example.org', AUTH_DEV_MODE: 'false', MCP_OAUTH_SCOPES: 'openid offline_access api://vigil/mcp' });
    expect(protectedResourceMetadata(config, 'https://vigil.example.org', '/mcp').scopes_supported).toEqual(['openid', 'offline_access', 'api://vigil/mcp']);
    expect(() => loadConfig({ MCP_OAUTH_SCOPES: 'openid  offline_access' })).toThrow(/MCP_OAUTH_SCOPES/);
  });

  it('names no authorization server with development tokens, and says what is configured instead', () => {
    const metadata = protectedResourceMetadata(loadConfig({}), 'http://localhost:3000', '/');
    expect(metadata.resource).toBe('http://localhost:3000/');
    expect(metadata.authorization_servers).toBeUndefined();
    expect(metadata.vigil_token_source).toMatch(/development tokens.*issuer "vigil-dev", audience "vigil"/);
  });

  it('takes the origin from PUBLIC_BASE_URL, and refuses one with a path', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://vigil.example.org' }).mcp.publicBaseUrl).toBe('https://vigil.example.org');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://vigil.example.org/mcp' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
